package io.github.resiliencestarter.idempotent.support;

/**
 * The share of an operation's recent claims that found a record already there, which lets a store
 * choose what a claim sends first. Claiming first takes a new key in one round trip and, in the
 * JDBC store, needs a second (the read of the row) for a key that exists; reading first answers an
 * existing key in one (in the Redis store, a plain read instead of the claim script) and needs a
 * second (the claim) for a new one. So a store reads first while more than half of the recent
 * claims found a record, and claims first otherwise. Either order is correct: the claim alone
 * decides who owns a key (rule I-3), the read only answers sooner, and only with a record no claim
 * could change.
 *
 * <p>An exponentially weighted average over about the last {@value #SPAN} claims, updated without
 * a lock: two claims recording at once may lose one sample, which an average can afford.
 */
public final class DuplicateShare {

    /** Roughly how many recent claims the average follows. */
    public static final int SPAN = 16;

    private static final int SHIFT = Integer.numberOfTrailingZeros(SPAN);

    /** The share as a fixed-point fraction: {@code ONE} means every recent claim found a row. */
    private static final int ONE = 1 << 16;

    private volatile int share;

    /**
     * Whether the next claim should read before it inserts.
     *
     * @return {@code true} while most recent claims found a row
     */
    public boolean readFirst() {
        return share > ONE / 2;
    }

    /**
     * Records what one claim met.
     *
     * @param foundRow whether the key already had a record
     */
    public void record(boolean foundRow) {
        int current = share;
        share = current + (((foundRow ? ONE : 0) - current) >> SHIFT);
    }
}
