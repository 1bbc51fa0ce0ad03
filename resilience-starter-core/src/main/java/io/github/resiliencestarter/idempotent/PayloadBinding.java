package io.github.resiliencestarter.idempotent;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a stored payload is bound to when it is sealed: its record's key, the type of the response
 * it holds, and the fingerprint of the request that produced it. A {@link PayloadProtection} uses
 * all three as the associated data of its seal, so a sealed payload copied onto another record, or
 * relabelled as another type of response (a value read as a failure, say), or kept under another
 * request's fingerprint, does not open.
 *
 * @param storedKey the record's key
 * @param type the stored response's type
 * @param fingerprint the request's fingerprint ({@code ""} when the payload is not checked)
 */
public record PayloadBinding(String storedKey, String type, String fingerprint) {

    /** Checks the fields. */
    public PayloadBinding {
        Objects.requireNonNull(storedKey, "storedKey");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /**
     * The associated data: the three fields, each preceded by its length, so no two bindings share
     * it.
     *
     * @return UTF-8 bytes
     */
    public byte[] associatedData() {
        return (storedKey.length() + ":" + storedKey + type.length() + ":" + type + fingerprint.length() + ":"
                + fingerprint).getBytes(StandardCharsets.UTF_8);
    }
}
