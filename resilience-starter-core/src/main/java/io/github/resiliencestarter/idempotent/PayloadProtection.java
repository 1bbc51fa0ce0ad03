package io.github.resiliencestarter.idempotent;

/**
 * What stored responses look like at rest. A replay needs the first response, so the store keeps
 * it for the record's TTL; an implementation seals it (authenticated encryption) before it leaves
 * the process and opens it when a duplicate is answered. The {@link PayloadBinding} (the record's
 * key, the response's type, the request's fingerprint) is the associated data, so a sealed payload
 * copied onto another record, relabelled or moved to another request does not open.
 */
public interface PayloadProtection {

    /** Stores payloads as they are. */
    PayloadProtection NONE = new PayloadProtection() {
        @Override
        public String seal(String payload, PayloadBinding binding) {
            return payload;
        }

        @Override
        public String open(String stored, PayloadBinding binding) {
            return stored;
        }
    };

    /**
     * The form a payload is stored in.
     *
     * @param payload the encoded response
     * @param binding the record's key, the response's type and the request's fingerprint, bound to the result
     * @return what the store keeps
     */
    String seal(String payload, PayloadBinding binding);

    /**
     * The payload a stored form holds.
     *
     * @param stored what the store kept
     * @param binding the record's key, the response's type and the request's fingerprint
     * @return the encoded response
     * @throws IdempotencyRecordCorruptedException when it cannot be opened: another binding,
     *     tampering, a key id no longer configured, or a payload that was never sealed
     */
    String open(String stored, PayloadBinding binding);
}
