package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.context.TimeSource;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/** Parses HTTP {@code Retry-After} values: delay-seconds or an HTTP-date. */
public final class RetryAfter {

    /** Longest delay-seconds value accepted (digits); longer values are treated as malformed. */
    private static final int MAX_SECONDS_DIGITS = 9;

    private RetryAfter() {
    }

    /**
     * Parses a header value.
     *
     * @param value {@code "120"} or {@code "Wed, 21 Oct 2015 07:28:00 GMT"}; may be {@code null}
     * @param time the wall clock HTTP-dates are compared with
     * @return the wait (zero for a date in the past), or {@code null} when absent or malformed
     */
    public static @Nullable Duration parse(@Nullable String value, TimeSource time) {
        if (value == null) {
            return null;
        }
        String trimmed = value.trim();
        if (trimmed.isEmpty()) {
            return null;
        }
        if (trimmed.length() <= MAX_SECONDS_DIGITS && trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Duration.ofSeconds(Long.parseLong(trimmed));
        }
        try {
            ZonedDateTime at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration wait = Duration.ofMillis(at.toInstant().toEpochMilli() - time.epochMillis());
            return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeParseException ex) {
            return null;
        }
    }
}
