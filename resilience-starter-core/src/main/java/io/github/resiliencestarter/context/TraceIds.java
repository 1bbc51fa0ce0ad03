package io.github.resiliencestarter.context;

import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * Validates inbound trace ids and makes new ones.
 *
 * <p>An accepted id is 1 to {@value #MAX_LENGTH} characters of {@code [A-Za-z0-9_-]}: nothing
 * that could break a header, a log line or a JSON string. Anything else is rejected and replaced,
 * never cleaned up, because a cleaned-up id would still be attacker-chosen.
 */
public final class TraceIds {

    /** Longest trace id accepted from outside. */
    public static final int MAX_LENGTH = 64;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceIds() {
    }

    /**
     * Whether {@code candidate} is an acceptable trace id.
     *
     * @param candidate an inbound value, possibly {@code null}
     * @return {@code true} when it may be used as is
     */
    public static boolean isValid(@Nullable String candidate) {
        if (candidate == null || candidate.isEmpty() || candidate.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The trace id of a W3C {@code traceparent} header ({@code 00-<32 hex>-<16 hex>-<2 hex>}).
     *
     * @param traceparent the header value, possibly {@code null}
     * @return the 32-hex trace id, or {@code null} when the header is absent or malformed
     */
    public static @Nullable String fromTraceparent(@Nullable String traceparent) {
        if (traceparent == null) {
            return null;
        }
        String value = traceparent.trim();
        // version(2)-traceid(32)-parentid(16)-flags(2); later versions may append fields
        if (value.length() < 55 || value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return null;
        }
        String version = value.substring(0, 2);
        if (!isLowerHex(version) || "ff".equals(version)) {
            return null;
        }
        if ("00".equals(version) && value.length() != 55) {
            return null;
        }
        String traceId = value.substring(3, 35);
        if (!isLowerHex(traceId) || isAllZeros(traceId)) {
            return null;
        }
        return traceId;
    }

    /**
     * A new random 32-hex trace id, the W3C shape, so it can also be sent as a {@code traceparent}.
     *
     * @return a new trace id
     */
    public static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] out = new char[32];
        long high = random.nextLong();
        long low = random.nextLong();
        if (high == 0 && low == 0) {
            low = 1;
        }
        for (int i = 0; i < 16; i++) {
            out[15 - i] = HEX[(int) (high >>> (i * 4)) & 0xF];
            out[31 - i] = HEX[(int) (low >>> (i * 4)) & 0xF];
        }
        return new String(out);
    }

    private static boolean isLowerHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAllZeros(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
