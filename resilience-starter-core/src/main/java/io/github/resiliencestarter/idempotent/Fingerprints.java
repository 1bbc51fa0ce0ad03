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
     * @return 64 hex characters
     */
    static String of(@Nullable Object value) {
        return IdempotencyKeys.sha256(JSON.toJSONBytes(value, CANONICAL));
    }
}
