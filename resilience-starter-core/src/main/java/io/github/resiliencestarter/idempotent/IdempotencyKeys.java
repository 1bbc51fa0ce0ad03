package io.github.resiliencestarter.idempotent;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * Validates client keys and builds the stored key.
 *
 * <p>Stored key = {@code prefix + part(name) + ':' + part(scope) + ':' + part(key)}, where a part
 * is kept as is when it is at most {@value #MAX_RAW_PART} characters of {@code [A-Za-z0-9._-]},
 * and otherwise replaced by {@code '#'} and the SHA-256 hex of its UTF-8 bytes. Raw parts contain
 * neither {@code ':'} nor {@code '#'}, so distinct inputs never map to the same stored key (up to
 * SHA-256 collisions), whatever the key's length or script, and the stored key always fits a
 * 255-character column.
 */
public final class IdempotencyKeys {

    /** Longest client key accepted. */
    public static final int MAX_KEY_LENGTH = 255;

    /** Longest part kept readable in the stored key. */
    public static final int MAX_RAW_PART = 64;

    /** Longest key prefix accepted. */
    public static final int MAX_PREFIX_LENGTH = 32;

    private static final HexFormat HEX = HexFormat.of();

    private static final MessageDigest SHA_256 = newSha256();

    private IdempotencyKeys() {
    }

    /**
     * Checks a client key.
     *
     * @param key the key, possibly {@code null}
     * @return the key, now known to be valid
     * @throws IdempotencyKeyException when it is missing, blank, longer than {@value #MAX_KEY_LENGTH}
     *     characters or contains control characters
     */
    public static String validate(@Nullable String key) {
        if (key == null) {
            throw new IdempotencyKeyException("The idempotency key is missing");
        }
        if (key.isBlank()) {
            throw new IdempotencyKeyException("The idempotency key is blank");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new IdempotencyKeyException("The idempotency key is longer than " + MAX_KEY_LENGTH
                    + " characters (" + key.length() + ")");
        }
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                throw new IdempotencyKeyException("The idempotency key contains a control character at index " + i);
            }
        }
        return key;
    }

    /**
     * The stored key.
     *
     * @param prefix a short namespace, such as {@code "idem:"}
     * @param name the operation name
     * @param scope the caller's scope (a principal name), or empty
     * @param key the validated client key
     * @return the stored key, at most {@code prefix.length() + 197} characters
     */
    public static String storedKey(String prefix, String name, String scope, String key) {
        return prefix + part(name) + ':' + part(scope) + ':' + part(key);
    }

    /**
     * SHA-256 hex of a string's UTF-8 bytes.
     *
     * @param text the text
     * @return 64 lower-case hex characters
     */
    public static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * SHA-256 hex of bytes.
     *
     * @param bytes the bytes
     * @return 64 lower-case hex characters
     */
    public static String sha256(byte[] bytes) {
        try {
            // a copy of a ready digest: the provider lookup of getInstance cost more than hashing a key
            return HEX.formatHex(((MessageDigest) SHA_256.clone()).digest(bytes));
        } catch (CloneNotSupportedException ex) {
            throw new IllegalStateException("the platform's SHA-256 cannot be copied", ex);
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
        }
    }

    private static String part(@Nullable String value) {
        String text = value == null ? "" : value;
        return isRaw(text) ? text : '#' + sha256(text);
    }

    private static boolean isRaw(String text) {
        if (text.length() > MAX_RAW_PART) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
