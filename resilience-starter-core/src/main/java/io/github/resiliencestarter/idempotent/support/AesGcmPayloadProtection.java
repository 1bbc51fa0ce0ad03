package io.github.resiliencestarter.idempotent.support;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.PayloadBinding;
import io.github.resiliencestarter.idempotent.PayloadProtection;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Stored responses sealed with AES-GCM (the JDK's, no library): {@code aesgcm2:<key id>:<base64 of
 * a 12-byte nonce and the ciphertext with its tag>}, the {@link PayloadBinding} (record key,
 * response type, request fingerprint) as associated data. Keys are named by id; new records use
 * the active one, and older records open with whichever key they name, so a key is rotated by
 * adding a new one, making it active, and removing the old one once its records have expired (the
 * TTL).
 *
 * <p>Once keys are configured, a payload that is not sealed is refused as unreadable (nothing
 * runs): whoever can write to the store must not be able to plant a replay. So is a payload sealed
 * by an earlier version ({@code aesgcm:}, bound to the record key alone, so its type could be
 * relabelled). For the migration window (one TTL after switching protection on, or after
 * upgrading), {@code acceptLegacy} reads both.
 */
public final class AesGcmPayloadProtection implements PayloadProtection {

    /** What sealed payloads begin with. */
    public static final String PREFIX = "aesgcm2:";

    /** What payloads sealed by an earlier version begin with: bound to the record key alone. */
    public static final String LEGACY_PREFIX = "aesgcm:";

    private static final int NONCE_BYTES = 12;

    private static final int TAG_BITS = 128;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, SecretKey> keys;

    private final String activeKey;

    private final boolean acceptLegacy;

    /**
     * Creates the protection, which refuses unsealed and legacy payloads.
     *
     * @param keys AES keys (16, 24 or 32 bytes) by id; ids of letters, digits, {@code -} and {@code _}
     * @param activeKey the id of the key new records are sealed with
     */
    public AesGcmPayloadProtection(Map<String, byte[]> keys, String activeKey) {
        this(keys, activeKey, false);
    }

    /**
     * Creates the protection.
     *
     * @param keys AES keys (16, 24 or 32 bytes) by id; ids of letters, digits, {@code -} and {@code _}
     * @param activeKey the id of the key new records are sealed with
     * @param acceptLegacy whether payloads written before protection was on, or sealed by an
     *     earlier version, are read (a migration window of one TTL), instead of refused
     */
    public AesGcmPayloadProtection(Map<String, byte[]> keys, String activeKey, boolean acceptLegacy) {
        Objects.requireNonNull(keys, "keys");
        keys.forEach((id, key) -> {
            if (!id.matches("[A-Za-z0-9_-]+")) {
                throw new InvalidSettingException("keys", "must have ids of letters, digits, - and _", id);
            }
            if (key.length != 16 && key.length != 24 && key.length != 32) {
                throw new InvalidSettingException("keys", "must each be 16, 24 or 32 bytes (AES-128, -192, -256)",
                        id + " of " + key.length + " bytes");
            }
        });
        if (!keys.containsKey(activeKey)) {
            throw new InvalidSettingException("activeKey", "must name one of the keys " + keys.keySet(), activeKey);
        }
        this.keys = keys.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey,
                entry -> new SecretKeySpec(entry.getValue().clone(), "AES")));
        this.activeKey = activeKey;
        this.acceptLegacy = acceptLegacy;
    }

    @Override
    public String seal(String payload, PayloadBinding binding) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(activeKey), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(binding.associatedData());
            byte[] sealed = cipher.doFinal(payload.getBytes(StandardCharsets.UTF_8));
            byte[] stored = ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array();
            return PREFIX + activeKey + ':' + Base64.getEncoder().encodeToString(stored);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", ex);
        }
    }

    @Override
    public String open(String stored, PayloadBinding binding) {
        if (stored.startsWith(PREFIX)) {
            return open(stored, PREFIX.length(), binding.associatedData());
        }
        if (!acceptLegacy) {
            throw new IdempotencyRecordCorruptedException(stored.startsWith(LEGACY_PREFIX)
                    ? "a stored response is sealed by an earlier version, bound to its key alone; set "
                            + "resilience.idempotent.encryption.accept-legacy=true for one TTL to read such records"
                    : "a stored response is not sealed although encryption is on; set "
                            + "resilience.idempotent.encryption.accept-legacy=true for one TTL after switching it on",
                    null);
        }
        return stored.startsWith(LEGACY_PREFIX)
                ? open(stored, LEGACY_PREFIX.length(), binding.storedKey().getBytes(StandardCharsets.UTF_8)) : stored;
    }

    private String open(String stored, int prefixLength, byte[] associatedData) {
        int colon = stored.indexOf(':', prefixLength);
        SecretKey key = colon < 0 ? null : keys.get(stored.substring(prefixLength, colon));
        if (key == null) {
            throw new IdempotencyRecordCorruptedException("a stored response is sealed with a key that is not "
                    + "configured (resilience.idempotent.encryption.keys)", null);
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(stored.substring(colon + 1));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData);
            return new String(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException ex) {
            // tampered, truncated, relabelled or copied from another record: never a guess at the plaintext
            throw new IdempotencyRecordCorruptedException("a stored response does not open with its key", ex);
        }
    }
}
