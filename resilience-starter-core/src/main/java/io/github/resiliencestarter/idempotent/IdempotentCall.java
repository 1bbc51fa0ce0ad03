package io.github.resiliencestarter.idempotent;

import java.lang.reflect.Type;

/**
 * Everything the executor needs to know about one idempotent call.
 *
 * @param operation the operation name, for errors and metrics
 * @param storedKey the key as stored (see {@link IdempotencyKeys#storedKey})
 * @param fingerprint the request fingerprint
 * @param returnType the method's generic return type ({@code void.class} for none)
 * @param config the settings
 */
public record IdempotentCall(String operation, String storedKey, String fingerprint, Type returnType,
        IdempotencyConfig config) {
}
