package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * What an atomic claim found.
 *
 * @param outcome claimed, taken over, or already there
 * @param existing the record that was there (for {@link Outcome#EXISTS}), else {@code null}
 */
public record ClaimResult(Outcome outcome, @Nullable IdempotencyRecord existing) {

    private static final ClaimResult CLAIMED = new ClaimResult(Outcome.CLAIMED, null);

    private static final ClaimResult TAKEN_OVER = new ClaimResult(Outcome.TAKEN_OVER, null);

    /** The possible outcomes. */
    public enum Outcome {

        /** No live record existed; the caller now owns a new IN_PROGRESS record. */
        CLAIMED,

        /** An IN_PROGRESS record with an expired lease was taken over; the caller now owns it. */
        TAKEN_OVER,

        /** A live record exists (IN_PROGRESS with a valid lease, or COMPLETED). */
        EXISTS
    }

    /**
     * The caller owns a new record.
     *
     * @return the result
     */
    public static ClaimResult claimed() {
        return CLAIMED;
    }

    /**
     * The caller took over an expired claim.
     *
     * @return the result
     */
    public static ClaimResult takenOver() {
        return TAKEN_OVER;
    }

    /**
     * A live record exists.
     *
     * @param record the record
     * @return the result
     */
    public static ClaimResult exists(IdempotencyRecord record) {
        return new ClaimResult(Outcome.EXISTS, record);
    }

    /**
     * Whether the caller now owns the key.
     *
     * @return {@code true} for CLAIMED and TAKEN_OVER
     */
    public boolean owned() {
        return outcome != Outcome.EXISTS;
    }
}
