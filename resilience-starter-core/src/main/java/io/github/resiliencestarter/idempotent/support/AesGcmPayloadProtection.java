package io.github.resiliencestarter.idempotent.support;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
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
 * Stored responses sealed with AES-GCM (the JDK's, no library): {@code aesgcm:<key id>:<base64 of
 * a 12-byte nonce and the ciphertext with its tag>}, the stored key as associated data. Keys are
 * named by id; new records use the active one, and older records open with whichever key they
 * name, so a key is rotated by adding a new one, making it active, and removing the old one once
 * its records have expired (the TTL). A payload without the prefix was written before protection
 * was switched on and is read as it is.
 */
public final class AesGcmPayloadProtection implements PayloadProtection {

    /** What sealed payloads begin with. */
    public static final String PREFIX = "aesgcm:";

    private static final int NONCE_BYTES = 12;

    private static final int TAG_BITS = 128;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, SecretKey> keys;

    private final String activeKey;

    /**
     * Creates the protection.
     *
     * @param keys AES keys (16, 24 or 32 bytes) by id; ids of letters, digits, {@code -} and {@code _}
     * @param activeKey the id of the key new records are sealed with
     */
    public AesGcmPayloadProtection(Map<String, byte[]> keys, String activeKey) {
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
    }

    @Override
    public String seal(String payload, String storedKey) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(activeKey), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(storedKey.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(payload.getBytes(StandardCharsets.UTF_8));
            byte[] stored = ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array();
            return PREFIX + activeKey + ':' + Base64.getEncoder().encodeToString(stored);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", ex);
        }
    }

    @Override
    public String open(String stored, String storedKey) {
        if (!stored.startsWith(PREFIX)) {
            return stored;
        }
        int colon = stored.indexOf(':', PREFIX.length());
        SecretKey key = colon < 0 ? null : keys.get(stored.substring(PREFIX.length(), colon));
        if (key == null) {
            throw new IdempotencyRecordCorruptedException("a stored response is sealed with a key that is not "
                    + "configured (resilience.idempotent.encryption.keys)", null);
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(stored.substring(colon + 1));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(storedKey.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException ex) {
            // tampered, truncated, or copied from another record: never a guess at the plaintext
            throw new IdempotencyRecordCorruptedException("a stored response does not open with its key", ex);
        }
    }
}
