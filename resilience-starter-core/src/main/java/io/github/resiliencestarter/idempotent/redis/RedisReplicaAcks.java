package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * How many replicas must acknowledge each write of the Redis store before it counts (Redis'
 * {@code WAIT}), and how long to wait for them. A claim no replica acknowledged is released and
 * refused rather than run: a failover could promote a replica that never saw it, and a duplicate
 * would run again. A completion or lease extension not acknowledged counts as failed, so the
 * settlement retries it until a master with replicas takes it.
 *
 * @param replicas replicas that must acknowledge; 0 sends no {@code WAIT}; {@link #EVERY_REPLICA}
 *     every replica the master lists
 * @param timeout how long the master waits for them
 */
public record RedisReplicaAcks(int replicas, Duration timeout) {

    /** No acknowledgement: a write counts once the master answered. */
    public static final RedisReplicaAcks NONE = new RedisReplicaAcks(0, Duration.ZERO);

    /** The {@code replicas} that stands for every replica the master has (at least one). */
    public static final int EVERY_REPLICA = Integer.MAX_VALUE;

    /**
     * Checks the values.
     *
     * @param replicas replicas that must acknowledge
     * @param timeout how long the master waits for them
     */
    public RedisReplicaAcks {
        Objects.requireNonNull(timeout, "timeout");
        if (replicas < 0) {
            throw new InvalidSettingException("replicas", "must be 0 or more", replicas);
        }
        if (replicas > 0 && (timeout.isNegative() || timeout.isZero())) {
            // WAIT with 0 blocks until the replicas answer, however long that takes
            throw new InvalidSettingException("timeout", "must be positive when replicas must acknowledge", timeout);
        }
    }

    /**
     * Every replica the master lists must acknowledge each write, whichever of them a failover
     * promotes; a master without replicas acknowledges nothing.
     *
     * @param timeout how long the master waits for them
     * @return the setting
     */
    public static RedisReplicaAcks everyReplica(Duration timeout) {
        return new RedisReplicaAcks(EVERY_REPLICA, timeout);
    }

    /** @return what must acknowledge, as a message says it */
    public String describe() {
        return replicas == EVERY_REPLICA ? "every replica" : replicas + " replica(s)";
    }

    /** @return whether writes wait for replicas */
    public boolean required() {
        return replicas > 0;
    }
}
