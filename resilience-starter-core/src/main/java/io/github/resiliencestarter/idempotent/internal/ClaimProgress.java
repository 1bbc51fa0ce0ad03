package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The one claim / wait / replay decision of an idempotent execution, shared by the blocking and
 * the asynchronous driver: given what the store answered, the next {@link ClaimStep}. Holds the
 * state of one execution's wait (how long it may still wait, the next poll interval) and nothing
 * else: no threads, no store calls.
 *
 * <p>A duplicate of a call in progress waits (polling with a doubling interval from
 * {@value #FIRST_POLL_MILLIS} ms to {@value #MAX_POLL_MILLIS} ms) until the record completes, is
 * released or its lease runs out, bounded by the wait limit and the deadline; with
 * {@link InProgressStrategy#REJECT}, or once the wait is spent, it is refused.
 *
 * <p>A claim is run at once only when its answer came within a third of the lease: the lease
 * runs from when the store applied the claim, which is after it was sent, so a later answer (the
 * node paused, the reply stalled) may come after the lease lapsed and another node took the key
 * over. Such a claim is first confirmed by extending its lease with the execution's token.
 */
public final class ClaimProgress {

    /** The first poll interval of a waiting duplicate. */
    public static final long FIRST_POLL_MILLIS = 10;

    /** The longest poll interval. */
    public static final long MAX_POLL_MILLIS = 200;

    private final String fingerprint;

    private final boolean reject;

    private final TimeSource time;

    private final long waitUntil;

    private final long freshNanos;

    private long sentAt;

    private long poll = FIRST_POLL_MILLIS;

    private long waitMillis;

    /**
     * Starts the decision of one execution.
     *
     * @param config the call's settings
     * @param fingerprint the call's fingerprint
     * @param deadline the call's deadline, or {@code null}
     * @param leaseMillis the lease each claim and confirmation asks for
     * @param time the time source
     */
    public ClaimProgress(IdempotencyConfig config, String fingerprint, @Nullable Deadline deadline, long leaseMillis,
            TimeSource time) {
        this.fingerprint = fingerprint;
        // the lease keeper's own cadence: a lease it takes over with less than two thirds left may lapse first
        this.freshNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 3;
        this.reject = config.onInProgress() == InProgressStrategy.REJECT;
        this.time = time;
        long wait = config.waitTimeout().toNanos();
        this.waitUntil = time.nanoTime() + (deadline != null ? Math.min(wait, Math.max(0, deadline.remainingNanos()))
                : wait);
    }

    /** Marks the time a claim or a confirmation is sent, from which the lease it asks for runs at the earliest. */
    public void sending() {
        sentAt = time.nanoTime();
    }

    /**
     * After a claim.
     *
     * @param claim what the claim found
     * @return {@link ClaimStep#RUN} when owned, {@link ClaimStep#CONFIRM} when owned but answered
     *     so late (a pause, a stalled reply) that the lease may have lapsed, else what
     *     {@link #examine} says of the record found
     */
    public ClaimStep afterClaim(ClaimResult claim) {
        if (claim.owned()) {
            return answeredInTime();
        }
        IdempotencyRecord existing = claim.existing();
        if (existing == null) {
            throw new IdempotencyRecordCorruptedException("the store reported a key held without its record", null);
        }
        return examine(existing);
    }

    /**
     * After the lease of a claim answered late was extended (or not) with this execution's token.
     *
     * @param extended whether the store still had the key as this execution's
     * @return {@link ClaimStep#RUN} or, answered late again, {@link ClaimStep#CONFIRM}; when the
     *     key was taken over meanwhile, {@link ClaimStep#CLAIM_AGAIN}, which finds the new owner's record
     */
    public ClaimStep afterConfirm(boolean extended) {
        return extended ? answeredInTime() : ClaimStep.CLAIM_AGAIN;
    }

    private ClaimStep answeredInTime() {
        return time.nanoTime() - sentAt < freshNanos ? ClaimStep.RUN : ClaimStep.CONFIRM;
    }

    /**
     * After a wait, when the record was read again.
     *
     * @param found the record, or {@code null} when it is gone
     * @return {@link ClaimStep#CLAIM_AGAIN} when released or abandoned, else what {@link #examine} says
     */
    public ClaimStep afterPoll(@Nullable IdempotencyRecord found) {
        return found == null || found.isLeaseExpired(time.epochMillis()) ? ClaimStep.CLAIM_AGAIN : examine(found);
    }

    /**
     * What a live record of another execution means for this one.
     *
     * @param existing the record
     * @return {@link ClaimStep#KEY_REUSED}, {@link ClaimStep#REPLAY}, {@link ClaimStep#REJECT} or
     *     {@link ClaimStep#WAIT}
     */
    public ClaimStep examine(IdempotencyRecord existing) {
        if (!fingerprint.equals(existing.fingerprint())) {
            return ClaimStep.KEY_REUSED;
        }
        // a committed response still missing after the lease is lost for good: the replay says so
        if (existing.status() == IdempotencyStatus.COMPLETED || (existing.status() == IdempotencyStatus.COMMITTED
                && existing.leaseExpiresAt() <= time.epochMillis())) {
            return ClaimStep.REPLAY;
        }
        long leftNanos = waitUntil - time.nanoTime();
        if (reject || leftNanos <= 0) {
            return ClaimStep.REJECT;
        }
        waitMillis = Math.max(1, Math.min(poll, leftNanos / 1_000_000));
        poll = Math.min(MAX_POLL_MILLIS, poll * 2);
        return ClaimStep.WAIT;
    }

    /**
     * How long to wait after {@link ClaimStep#WAIT}.
     *
     * @return milliseconds
     */
    public long waitMillis() {
        return waitMillis;
    }
}
