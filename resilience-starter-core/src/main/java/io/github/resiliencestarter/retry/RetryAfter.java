package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.context.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Parses HTTP {@code Retry-After} values: delay-seconds or an HTTP-date in any of the three forms
 * RFC 9110 (section 5.6.7) requires a recipient to accept: IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}), the obsolete RFC 850 form
 * ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime ({@code Sun Nov  6 08:49:37 1994}). How long
 * the caller may actually wait is the retry policy's cap ({@code maxRetryAfter}), not this parser's.
 */
public final class RetryAfter {

    /** Longest delay-seconds value accepted (digits); longer values are treated as malformed. */
    private static final int MAX_SECONDS_DIGITS = 9;

    /** asctime: the day of the month padded with a space, always GMT. */
    private static final DateTimeFormatter ASCTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
            Locale.US).withZone(ZoneOffset.UTC);

    private RetryAfter() {
    }

    private static @Nullable Instant httpDate(String value, TimeSource time) {
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException notFixdate) {
            // the two obsolete forms
        }
        try {
            return ZonedDateTime.parse(value, rfc850(time)).toInstant();
        } catch (DateTimeParseException notRfc850) {
            // the last form
        }
        try {
            return ZonedDateTime.parse(value, ASCTIME).toInstant();
        } catch (DateTimeParseException notAsctime) {
            return null;
        }
    }

    /**
     * RFC 850's two-digit year, read as RFC 9110 asks: a year that would be more than 50 years
     * ahead is the most recent past year with those digits.
     */
    private static DateTimeFormatter rfc850(TimeSource time) {
        int thisYear = Instant.ofEpochMilli(time.epochMillis()).atZone(ZoneOffset.UTC).getYear();
        return new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern("EEEE, dd-MMM-")
                .appendValueReduced(ChronoField.YEAR, 2, 2, thisYear - 49).appendPattern(" HH:mm:ss zzz")
                .toFormatter(Locale.US);
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
        Instant at = httpDate(trimmed, time);
        if (at == null) {
            return null;
        }
        Duration wait = Duration.ofMillis(Math.subtractExact(at.toEpochMilli(), time.epochMillis()));
        return wait.isNegative() ? Duration.ZERO : wait;
    }
}
