package io.github.resiliencestarter.idempotent;

/**
 * What stored responses look like at rest. A replay needs the first response, so the store keeps
 * it for the record's TTL; an implementation seals it (authenticated encryption) before it leaves
 * the process and opens it when a duplicate is answered. The stored key is the associated data,
 * so a sealed payload copied onto another record does not open.
 */
public interface PayloadProtection {

    /** Stores payloads as they are. */
    PayloadProtection NONE = new PayloadProtection() {
        @Override
        public String seal(String payload, String storedKey) {
            return payload;
        }

        @Override
        public String open(String stored, String storedKey) {
            return stored;
        }
    };

    /**
     * The form a payload is stored in.
     *
     * @param payload the encoded response
     * @param storedKey the record's key, bound to the result
     * @return what the store keeps
     */
    String seal(String payload, String storedKey);

    /**
     * The payload a stored form holds.
     *
     * @param stored what the store kept (a payload written before protection was on is returned as is)
     * @param storedKey the record's key
     * @return the encoded response
     * @throws IdempotencyRecordCorruptedException when it cannot be opened: another key, tampering,
     *     a key id no longer configured
     */
    String open(String stored, String storedKey);
}
