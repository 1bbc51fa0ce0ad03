package io.github.resiliencestarter.idempotent.jdbc;

/**
 * The share of an operation's recent claims that found a row already there, which decides the
 * statement a claim sends first. Inserting first claims a new key in one round trip and needs a
 * second (the read of the row) for a key that exists; reading first answers an existing key in one
 * and needs a second (the insert) for a new one. So the store reads first while more than half of
 * the recent claims found a row, and inserts first otherwise. Either order is correct: the insert
 * on the unique key alone decides who owns a key (rule I-3), the read only answers sooner.
 *
 * <p>An exponentially weighted average over about the last {@value #SPAN} claims, updated without
 * a lock: two claims recording at once may lose one sample, which an average can afford.
 */
final class DuplicateShare {

    /** Roughly how many recent claims the average follows. */
    static final int SPAN = 16;

    private static final int SHIFT = Integer.numberOfTrailingZeros(SPAN);

    /** The share as a fixed-point fraction: {@code ONE} means every recent claim found a row. */
    private static final int ONE = 1 << 16;

    private volatile int share;

    /**
     * Whether the next claim should read before it inserts.
     *
     * @return {@code true} while most recent claims found a row
     */
    boolean readFirst() {
        return share > ONE / 2;
    }

    /**
     * Records what one claim met.
     *
     * @param foundRow whether the key already had a row
     */
    void record(boolean foundRow) {
        int current = share;
        share = current + (((foundRow ? ONE : 0) - current) >> SHIFT);
    }
}
