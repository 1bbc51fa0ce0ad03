package io.github.resiliencestarter.context;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a caller's remaining budget from the headers that may carry it and keeps the smallest.
 *
 * <p>Malformed values (empty, negative, non-numeric, too many digits, unknown {@code grpc-timeout}
 * unit) are ignored with a debug log that names the header but never echoes the value, since it
 * is attacker-controlled. Values larger than the configured cap are clamped to it. A budget of
 * zero is valid and means "already spent".
 */
public final class InboundBudget {

    private static final Logger log = LoggerFactory.getLogger(InboundBudget.class);

    /** Digits accepted in a millisecond header: enough for a year, few enough to never overflow. */
    private static final int MAX_MILLIS_DIGITS = 12;

    /** gRPC allows at most 8 digits of timeout value. */
    private static final int MAX_GRPC_DIGITS = 8;

    private static final long INVALID = -1;

    private InboundBudget() {
    }

    /**
     * The smallest valid budget among the given header values, capped at {@code max}.
     *
     * @param budgetMs value of {@link ResilienceHeaders#TIMEOUT_BUDGET_MS}, or {@code null}
     * @param grpcTimeout value of {@link ResilienceHeaders#GRPC_TIMEOUT}, or {@code null}
     * @param envoyMs value of {@link ResilienceHeaders#ENVOY_EXPECTED_TIMEOUT_MS}, or {@code null}
     * @param max the largest budget a caller may grant, or {@code null} for no cap
     * @return the budget, or {@code null} when no header carried a valid one
     */
    public static @Nullable Duration smallest(@Nullable String budgetMs, @Nullable String grpcTimeout,
            @Nullable String envoyMs, @Nullable Duration max) {
        long nanos = minValid(
                millisToNanos(parseMillis(budgetMs, ResilienceHeaders.TIMEOUT_BUDGET_MS)),
                parseGrpcTimeoutNanos(grpcTimeout),
                millisToNanos(parseMillis(envoyMs, ResilienceHeaders.ENVOY_EXPECTED_TIMEOUT_MS)));
        if (nanos == INVALID) {
            return null;
        }
        Duration budget = Duration.ofNanos(nanos);
        return max != null && budget.compareTo(max) > 0 ? max : budget;
    }

    /**
     * Parses a relative millisecond value.
     *
     * @param value the header value, possibly {@code null}
     * @param header the header's name, for the debug log
     * @return the milliseconds, or -1 when absent or malformed
     */
    static long parseMillis(@Nullable String value, String header) {
        if (value == null) {
            return INVALID;
        }
        String trimmed = value.trim();
        if (trimmed.isEmpty() || trimmed.length() > MAX_MILLIS_DIGITS || !allDigits(trimmed, 0, trimmed.length())) {
            ignored(header, value);
            return INVALID;
        }
        return Long.parseLong(trimmed);
    }

    /**
     * Parses a {@code grpc-timeout} value such as {@code 250m} or {@code 3S}.
     *
     * @param value the header value, possibly {@code null}
     * @return the nanoseconds, or -1 when absent or malformed
     */
    static long parseGrpcTimeoutNanos(@Nullable String value) {
        if (value == null) {
            return INVALID;
        }
        String trimmed = value.trim();
        int digits = trimmed.length() - 1;
        if (digits < 1 || digits > MAX_GRPC_DIGITS || !allDigits(trimmed, 0, digits)) {
            ignored(ResilienceHeaders.GRPC_TIMEOUT, value);
            return INVALID;
        }
        long amount = Long.parseLong(trimmed, 0, digits, 10);
        long unitNanos = switch (trimmed.charAt(digits)) {
            case 'H' -> 3_600_000_000_000L;
            case 'M' -> 60_000_000_000L;
            case 'S' -> 1_000_000_000L;
            case 'm' -> 1_000_000L;
            case 'u' -> 1_000L;
            case 'n' -> 1L;
            default -> INVALID;
        };
        if (unitNanos == INVALID) {
            ignored(ResilienceHeaders.GRPC_TIMEOUT, value);
            return INVALID;
        }
        // 99,999,999 hours overflows a long of nanoseconds; clamp instead of wrapping
        return amount > Long.MAX_VALUE / unitNanos ? Long.MAX_VALUE : amount * unitNanos;
    }

    private static long millisToNanos(long millis) {
        return millis == INVALID ? INVALID : millis * 1_000_000L;
    }

    private static long minValid(long a, long b, long c) {
        long min = INVALID;
        for (long v : new long[] {a, b, c}) {
            if (v != INVALID && (min == INVALID || v < min)) {
                min = v;
            }
        }
        return min;
    }

    private static boolean allDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static void ignored(String header, String value) {
        if (log.isDebugEnabled()) {
            log.debug("Ignoring malformed {} header ({} chars)", header, value.length());
        }
    }
}
