package io.github.resiliencestarter.context;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A point in monotonic time after which work is no longer wanted.
 *
 * <p>Instances are immutable. Two deadlines on the same {@link TimeSource} compare by their instants;
 * {@link #earlierOf(Deadline, Deadline)} is the only way a context's deadline changes, which is why
 * a deadline can only shrink as a request travels inwards.
 */
public final class Deadline {

    /** Longest duration accepted; longer ones are clamped so nanosecond arithmetic never overflows. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    private final TimeSource time;

    private final long expiresAtNanos;

    /** Set by this process's own limit ({@code @Timeout}), not received from a caller. */
    private final boolean local;

    private Deadline(TimeSource time, long expiresAtNanos, boolean local) {
        this.time = time;
        this.expiresAtNanos = expiresAtNanos;
        this.local = local;
    }

    /**
     * A deadline {@code duration} from now on the system time.
     *
     * @param duration time left; negative counts as zero, more than {@link #MAX_DURATION} is clamped
     * @return the deadline
     */
    public static Deadline after(Duration duration) {
        return after(duration, TimeSource.SYSTEM);
    }

    /**
     * A deadline {@code duration} from now on the given time.
     *
     * @param duration time left; negative counts as zero, more than {@link #MAX_DURATION} is clamped
     * @param time the time source
     * @return the deadline
     */
    public static Deadline after(Duration duration, TimeSource time) {
        return afterNanos(toClampedNanos(duration), time);
    }

    /**
     * A deadline {@code nanos} from now on the given time.
     *
     * @param nanos time left in nanoseconds; negative counts as zero
     * @param time the time source
     * @return the deadline
     */
    public static Deadline afterNanos(long nanos, TimeSource time) {
        long clamped = Math.max(0, Math.min(nanos, MAX_DURATION.toNanos()));
        return new Deadline(time, time.nanoTime() + clamped, false);
    }

    /**
     * A deadline of this process's own limit (a {@code @Timeout}), {@code nanos} from now: one a
     * call that runs out of it has missed by its own fault, not by a caller's short budget.
     *
     * @param nanos time left in nanoseconds; negative counts as zero
     * @param time the time source
     * @return the deadline, {@linkplain #isLocal() local}
     */
    public static Deadline localAfterNanos(long nanos, TimeSource time) {
        return localAfterNanos(time.nanoTime(), nanos, time);
    }

    /**
     * A deadline of this process's own limit, {@code nanos} after {@code now}: for a caller that
     * already read the clock and uses the reading again (each read costs tens of nanoseconds).
     *
     * @param now a reading of {@code time} taken just before
     * @param nanos time left in nanoseconds; negative counts as zero
     * @param time the time source {@code now} was read from
     * @return the deadline
     */
    public static Deadline localAfterNanos(long now, long nanos, TimeSource time) {
        long clamped = Math.max(0, Math.min(nanos, MAX_DURATION.toNanos()));
        return new Deadline(time, now + clamped, true);
    }

    /**
     * Time left after a reading of the clock the caller already took: no second read when the
     * reading comes from this deadline's own time source.
     *
     * @param now a reading of {@code source}
     * @param source the time source {@code now} was read from
     * @return nanoseconds left at {@code now}; zero or negative once expired
     */
    public long remainingNanosAt(long now, TimeSource source) {
        return source == time ? expiresAtNanos - now : remainingNanos();
    }

    /**
     * Whether this deadline is this process's own limit rather than a budget a caller sent.
     *
     * @return {@code true} for a {@code @Timeout}'s own limit
     */
    public boolean isLocal() {
        return local;
    }

    /**
     * The earlier of two deadlines; {@code null} stands for "no deadline".
     *
     * @param a a deadline or {@code null}
     * @param b a deadline or {@code null}
     * @return the earlier one, or {@code null} when both are absent
     */
    public static @Nullable Deadline earlierOf(@Nullable Deadline a, @Nullable Deadline b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        // nanoTime values are compared by difference, as the JDK recommends
        return b.expiresAtNanos - a.expiresAtNanos < 0 ? b : a;
    }

    /**
     * Nanoseconds left, negative once expired.
     *
     * @return nanoseconds until the deadline
     */
    public long remainingNanos() {
        return expiresAtNanos - time.nanoTime();
    }

    /**
     * Time left, never negative.
     *
     * @return time until the deadline, or {@link Duration#ZERO} once expired
     */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, remainingNanos()));
    }

    /**
     * Whole milliseconds left, rounded down, never negative: the value to send downstream.
     *
     * @return milliseconds until the deadline
     */
    public long remainingMillis() {
        return TimeUnit.NANOSECONDS.toMillis(Math.max(0, remainingNanos()));
    }

    /**
     * The remaining time as a JDBC query timeout: whole seconds, rounded up (a statement may run a
     * little past the deadline, never be cut before it), at least 1; 0 once the deadline passed.
     *
     * @return seconds
     */
    public int remainingQueryTimeoutSeconds() {
        long remaining = remainingNanos();
        if (remaining <= 0) {
            return 0;
        }
        long second = TimeUnit.SECONDS.toNanos(1);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (remaining + second - 1) / second));
    }

    /**
     * Whether the deadline has passed.
     *
     * @return {@code true} when no time is left
     */
    public boolean isExpired() {
        return remainingNanos() <= 0;
    }

    /**
     * The time this deadline reads.
     *
     * @return the time
     */
    public TimeSource time() {
        return time;
    }

    private static long toClampedNanos(Duration duration) {
        if (duration.isNegative()) {
            return 0;
        }
        return duration.compareTo(MAX_DURATION) > 0 ? MAX_DURATION.toNanos() : duration.toNanos();
    }

    @Override
    public String toString() {
        return "Deadline[remaining=" + remaining() + "]";
    }
}
