package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.DurationEstimate;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When a refused duplicate of a call in progress should come back ({@code Retry-After}): the
 * operation's median duration over its recent executions on this node, never past the first
 * call's lease, at least one second and at most a minute; the lease alone when the operation has
 * no history here yet.
 */
public final class RetryAfterEstimate {

    private final Map<String, DurationEstimate> durations = new ConcurrentHashMap<>();

    private final TimeSource time;

    /**
     * Creates the estimate of one executor.
     *
     * @param time the time source of lease checks
     */
    public RetryAfterEstimate(TimeSource time) {
        this.time = time;
    }

    /**
     * Records how long an execution of {@code operation} took.
     *
     * @param operation the operation
     * @param nanos the duration
     */
    public void record(String operation, long nanos) {
        durations.computeIfAbsent(operation, name -> DurationEstimate.median()).record(nanos);
    }

    /**
     * The seconds a duplicate refused while {@code existing} is in progress should wait.
     *
     * @param operation the operation
     * @param existing the first call's record
     * @return seconds, from 1 to 60
     */
    public long retryAfterSeconds(String operation, IdempotencyRecord existing) {
        long leaseLeftMillis = existing.leaseExpiresAt() - time.epochMillis();
        DurationEstimate estimate = durations.get(operation);
        long typical = estimate == null ? -1 : estimate.estimateNanos();
        long millis = typical < 0 ? leaseLeftMillis : Math.min(typical / 1_000_000, leaseLeftMillis);
        long seconds = (Math.max(0, millis) + 999) / 1000;
        return Math.max(1, Math.min(seconds, 60));
    }
}
