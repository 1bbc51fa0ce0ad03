package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.spring.idempotent.FingerprintParameters;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import org.jspecify.annotations.Nullable;
import org.springframework.expression.Expression;

/**
 * The resolved {@code @Idempotent} of one method: parsed expressions, merged settings, the
 * declared return type and the executor.
 *
 * @param name the operation name (business type)
 * @param method the method, for expression evaluation
 * @param key the key expression, or {@code null} to read the request header
 * @param fingerprint the fingerprint expression, or {@code null} for the default
 * @param fingerprintOff whether the payload check is switched off
 * @param fingerprintParameters which parameters the default fingerprint covers
 * @param returnType the declared generic return type
 * @param config the merged settings
 * @param executor the executor on the configured store
 * @param kind how the method returns its result
 * @param keyRequired whether a call without the key header is refused (else it runs unprotected)
 */
public record IdempotentOperation(String name, Method method, @Nullable Expression key,
        @Nullable Expression fingerprint, boolean fingerprintOff, FingerprintParameters fingerprintParameters, Type returnType,
        IdempotencyConfig config, IdempotentExecutor executor, ResultKind kind, boolean keyRequired) {
}
