package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.idempotent.ClientErrorHandling;
import io.github.resiliencestarter.idempotent.FallbackAnswerHandling;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.spring.idempotent.FingerprintParameters;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.expression.Expression;
import org.springframework.util.StringValueResolver;

/**
 * Resolves {@code @Idempotent} per method: parses the key and fingerprint expressions (a bad
 * expression fails the start, naming the method), merges the settings and fixes the return type.
 */
public class IdempotentOperationSource extends AnnotatedOperationSource<Idempotent, IdempotentOperation> {

    private final IdempotencyConfig defaults;

    private final Supplier<IdempotentExecutor> executor;

    private final DefaultNames defaultNames = new DefaultNames("@Idempotent");

    private final Set<String> keyOptional;

    private final StringValueResolver placeholders;

    /**
     * Creates the source.
     *
     * @param defaults the configured settings
     * @param executor the executor on the configured store, looked up when the first method is
     *     resolved, so creating the advisor does not create the store (and its DataSource and
     *     transaction manager) before every post-processor is in place
     * @param placeholders resolves {@code ${...}} in annotation values
     */
    public IdempotentOperationSource(IdempotencyConfig defaults, Supplier<IdempotentExecutor> executor,
            StringValueResolver placeholders) {
        this(defaults, executor, placeholders, Set.of());
    }

    /**
     * Creates the source.
     *
     * @param defaults the configured settings
     * @param executor the executor on the configured store, looked up when the first method is resolved
     * @param placeholders resolves {@code ${...}} in annotation values
     * @param keyOptional names whose calls without the key header run unprotected, as with
     *     {@code @Idempotent(required = false)}
     */
    public IdempotentOperationSource(IdempotencyConfig defaults, Supplier<IdempotentExecutor> executor,
            StringValueResolver placeholders, Set<String> keyOptional) {
        super(Idempotent.class);
        this.defaults = defaults;
        this.executor = executor;
        this.placeholders = placeholders;
        this.keyOptional = Set.copyOf(keyOptional);
    }

    @Override
    protected IdempotentOperation build(Idempotent annotation, Method method, @Nullable Class<?> targetClass) {
        String operation = AnnotatedMethods.operationName(method, targetClass);
        String described = AnnotatedMethods.describe(method, targetClass);
        // records are kept under the name: two methods must not share one by default
        String name = annotation.name().isEmpty() ? defaultNames.take(operation, method, targetClass) : annotation.name();
        IdempotencyConfig.Builder config = IdempotencyConfig.from(defaults);
        Duration ttl = AnnotationValues.duration(annotation.ttl(), placeholders, "@Idempotent(ttl)", operation, false);
        if (ttl != null) {
            config.ttl(ttl);
        }
        if (annotation.onInProgress() != InProgressStrategy.DEFAULT) {
            config.onInProgress(annotation.onInProgress());
        }
        if (annotation.onClientError() != ClientErrorHandling.DEFAULT) {
            config.onClientError(annotation.onClientError());
        }
        if (annotation.onFallbackAnswer() != FallbackAnswerHandling.DEFAULT) {
            config.onFallbackAnswer(annotation.onFallbackAnswer());
        }
        if (annotation.excludeFields().length > 0) {
            Set<String> excluded = new LinkedHashSet<>(defaults.excludedFields());
            excluded.addAll(List.of(annotation.excludeFields()));
            config.excludedFields(excluded);
        }
        if (annotation.cacheExceptions().length > 0) {
            config.cacheableExceptions(List.of(annotation.cacheExceptions()));
        }
        IdempotentExecutor resolvedExecutor = executor.get();
        IdempotencyConfig settings = config.build();
        if (!settings.excludedFields().isEmpty() && !resolvedExecutor.canExcludeFields()) {
            throw new InvalidDeclarationException("@Idempotent on " + described + " leaves fields "
                    + settings.excludedFields() + " out of its stored response, which the configured codec cannot.",
                    "Use the starter's codec (Fastjson2ResponseCodec), or a ResponseCodec whose canExcludeFields() "
                    + "is true, or remove excludeFields.");
        }
        ResultKind kind = ResultKind.governable(method, "@Idempotent", described);
        // a CompletionStage<T> or Mono<T> stores and replays its completed T
        Type valueType = kind.valueType(method);
        if (!resolvedExecutor.canReplay(valueType)) {
            throw new InvalidDeclarationException("@Idempotent on " + described + " returns "
                    + valueType.getTypeName() + (kind.isAsync() ? " asynchronously" : "")
                    + ", which cannot be stored and replayed.",
                    "Return the data itself (a record, a POJO, a collection, a String, ResponseEntity<data>) "
                    + "or void; not supported: " + Fastjson2ResponseCodec.NOT_SUPPORTED + ".");
        }
        boolean fingerprintOff = Idempotent.NO_FINGERPRINT.equals(annotation.fingerprint());
        Expression fingerprint = fingerprintOff ? null : KeyExpressions.parse(annotation.fingerprint(), "fingerprint", method, described);
        if (!annotation.required() && !annotation.key().isEmpty()) {
            throw new InvalidDeclarationException("@Idempotent(required = false) on " + described + " has a key "
                    + "expression, which every call has: required applies to the Idempotency-Key header only.",
                    "Remove required = false, or the key expression to read the key from the header.");
        }
        boolean keyRequired = annotation.required() && !keyOptional.contains(name);
        return new IdempotentOperation(name, method, KeyExpressions.parse(annotation.key(), "key", method, described), fingerprint,
                fingerprintOff, FingerprintParameters.of(method), valueType, settings, resolvedExecutor,
                kind, keyRequired);
    }
}
