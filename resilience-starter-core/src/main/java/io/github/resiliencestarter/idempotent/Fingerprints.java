package io.github.resiliencestarter.idempotent;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import org.jspecify.annotations.Nullable;

/**
 * The request fingerprint: SHA-256 of the canonical JSON (map keys sorted, nulls written) of what
 * identifies the request, so equal payloads give equal fingerprints whatever their map order.
 */
final class Fingerprints {

    private static final JSONWriter.Feature[] CANONICAL = {JSONWriter.Feature.MapSortField,
        JSONWriter.Feature.WriteNulls};

    private Fingerprints() {
    }

    /**
     * The fingerprint of some values.
     *
     * @param value what identifies the request
     * @param operation the operation, named in the error
     * @return 64 hex characters
     * @throws IdempotencyKeyExpressionException when the values cannot be written: a reference
     *     cycle, or a getter that fails (a JPA entity's lazy association outside its session), a
     *     fault of the code that nothing executes after (500, the details in the log)
     */
    static String of(@Nullable Object value, String operation) {
        byte[] canonical;
        try {
            canonical = JSON.toJSONBytes(value, CANONICAL);
        } catch (RuntimeException | StackOverflowError ex) {
            throw new IdempotencyKeyExpressionException("The arguments of " + operation + " cannot be fingerprinted ("
                    + ex.getClass().getSimpleName() + ": a reference cycle, or a getter that fails, as a JPA entity's "
                    + "lazy association does outside its session). Fingerprint what identifies the request instead: "
                    + "@Idempotent(fingerprint = \"#order.orderNo\"), or fingerprint = \"none\" for no payload check", ex);
        }
        return IdempotencyKeys.sha256(canonical);
    }
}
