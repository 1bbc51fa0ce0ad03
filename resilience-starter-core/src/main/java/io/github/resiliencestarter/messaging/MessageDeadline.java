package io.github.resiliencestarter.messaging;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A deadline across a queue: the sender writes it as an absolute wall-clock expiry
 * ({@link ResilienceHeaders#DEADLINE_EPOCH_MS}), since the time a message waits in the queue must
 * count and no socket measures it; the consumer turns it back into a local deadline. Clock skew
 * between the hosts shifts it by the skew, which is why the consumer caps what it accepts.
 */
public final class MessageDeadline {

    /** Digits accepted in the header: epoch milliseconds for centuries, never an overflow. */
    private static final int MAX_DIGITS = 15;

    private MessageDeadline() {
    }

    /**
     * The header value for a message sent now under {@code deadline}.
     *
     * @param deadline the sender's deadline, or {@code null} for none
     * @param nowEpochMillis the sender's wall clock
     * @return the epoch milliseconds to write, or {@code null} when there is no deadline to send
     */
    public static @Nullable String expiryOf(@Nullable Deadline deadline, long nowEpochMillis) {
        return deadline == null ? null : Long.toString(nowEpochMillis + Math.max(0, deadline.remainingMillis()));
    }

    /**
     * What is left of a received message's deadline.
     *
     * @param expiry the header's value, possibly {@code null}
     * @param nowEpochMillis the consumer's wall clock
     * @param max the most a message may grant (a skewed or hostile sender's far expiry is cut to it)
     * @return the remaining time ({@link Duration#ZERO} when expired), or {@code null} when the
     *     message carries no valid expiry
     */
    public static @Nullable Duration remaining(@Nullable String expiry, long nowEpochMillis, Duration max) {
        if (expiry == null) {
            return null;
        }
        String trimmed = expiry.trim();
        if (trimmed.isEmpty() || trimmed.length() > MAX_DIGITS || !trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        long left = Long.parseLong(trimmed) - nowEpochMillis;
        if (left <= 0) {
            return Duration.ZERO;
        }
        Duration remaining = Duration.ofMillis(left);
        return remaining.compareTo(max) > 0 ? max : remaining;
    }
}
