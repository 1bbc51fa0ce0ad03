package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.Stages;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyExpressionException;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentResult;
import io.github.resiliencestarter.spring.idempotent.IdempotencyKeyHeader;
import io.github.resiliencestarter.spring.idempotent.IdempotencyScopeResolver;
import io.github.resiliencestarter.spring.idempotent.RequestHeaders;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.expression.Expression;

/**
 * Applies {@code @Idempotent}: resolves the key (expression, else header), validates it, scopes it
 * to the caller, fingerprints the payload and runs the call through the executor. Every replay,
 * a replayed failure included, marks the response with {@code Idempotent-Replayed: true} once.
 */
public class IdempotentInterceptor extends OperationInterceptor<IdempotentOperation> {

    private static final Logger log = LoggerFactory.getLogger(IdempotentInterceptor.class);

    private final IdempotentOperationSource source;

    private final IdempotencyScopeResolver scopes;

    private final String keyHeader;

    /**
     * Creates the interceptor.
     *
     * @param source the per-method settings
     * @param scopes names the caller's scope
     * @param keyHeader the request header carrying the key when no expression is given
     */
    public IdempotentInterceptor(IdempotentOperationSource source, IdempotencyScopeResolver scopes,
            String keyHeader) {
        this.source = source;
        this.scopes = scopes;
        this.keyHeader = keyHeader;
    }

    @Override
    protected AnnotatedOperationSource<?, IdempotentOperation> source() {
        return source;
    }

    @Override
    protected @Nullable Object invoke(IdempotentOperation operation, MethodInvocation invocation) throws Throwable {
        Object[] args = invocation.getArguments();
        String key = operation.key() != null ? evaluate(operation.key(), operation, args, "key")
                : IdempotencyKeyHeader.parse(keyHeader, RequestHeaders.headers(keyHeader));
        if (key == null && operation.key() == null) {
            if (operation.keyRequired()) {
                throw new IdempotencyKeyException("The idempotency key is missing: send the " + keyHeader + " header");
            }
            // a client that sends no key yet: run as before the annotation, and count it
            operation.executor().countUnprotected(operation.name());
            return invocation.proceed();
        }
        IdempotentCall.Builder call = IdempotentCall.builder(operation.name(), operation.config()).key(key)
                .scopeFrom(scopes::currentScope).returnType(operation.returnType());
        if (!operation.fingerprintOff()) {
            call.fingerprintOf(operation.fingerprint() != null
                    ? value(operation.fingerprint(), operation, args, "fingerprint")
                    : operation.fingerprintParameters().select(args));
        }
        if (operation.kind().completesAStage()) {
            // a replay may complete on another thread: mark this request's response, captured now
            CompletableFuture<IdempotentResult<Object>> execution = operation.executor().executeAsync(call.build(),
                    () -> AsyncResults.proceed(invocation), RequestHeaders.replayMarker());
            return Stages.cancelling(execution.thenApply(IdempotentResult::value), execution);
        }
        if (operation.kind() == ResultKind.MONO) {
            IdempotentCall built = call.build();
            Runnable marker = RequestHeaders.replayMarker();
            return ReactorResults.perSubscriptionOffEventLoop(() -> {
                CompletableFuture<IdempotentResult<Object>> execution = operation.executor()
                        .executeAsync(built, () -> ReactorResults.subscribe(invocation), marker);
                return Stages.cancelling(execution.thenApply(IdempotentResult::value), execution);
            });
        }
        return operation.executor().execute(call.build(), proceeding(invocation), RequestHeaders::markReplayed).value();
    }

    @Override
    protected @Nullable FallbackMethod fallback(IdempotentOperation operation) {
        return null;
    }

    private static String evaluate(Expression expression, IdempotentOperation operation, Object[] args,
            String what) {
        Object value = value(expression, operation, args, what);
        if (value == null) {
            throw new IdempotencyKeyException("The request carries no value for the idempotency " + what);
        }
        return value.toString();
    }

    private static @Nullable Object value(Expression expression, IdempotentOperation operation, Object[] args,
            String what) {
        try {
            return KeyExpressions.valueOf(expression, args);
        } catch (RuntimeException ex) {
            if (KeyExpressions.isMissingValue(ex)) {
                throw new IdempotencyKeyException("The request lacks a value the idempotency " + what
                        + " is made of");
            }
            // the expression itself is wrong for this call: a server fault, detailed only in the log
            log.error("@Idempotent({} = \"{}\") of {} failed: {}", what, expression.getExpressionString(),
                    operation.name(), ex.getMessage());
            throw new IdempotencyKeyExpressionException("The idempotency " + what + " expression of "
                    + operation.name() + " failed: " + ex.getMessage(), ex);
        }
    }
}
