package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * Redis' {@code WAIT} on the connection that just wrote, through Lettuce (Spring Data Redis has no
 * command for it, and its generic {@code execute} cannot read an integer reply on Lettuce). A class
 * of its own so that Lettuce is loaded only when replica acknowledgement is asked for.
 */
final class LettuceReplicaWait {

    /** What the client waits beyond the server's own timeout before giving up on the reply. */
    private static final long REPLY_GRACE_MILLIS = 1_000;

    private LettuceReplicaWait() {
    }

    /**
     * Waits until the replicas acknowledged every write this connection made.
     *
     * @param connection the connection that wrote
     * @param acks how many replicas, and how long
     * @return how many replicas acknowledged
     */
    static long await(RedisConnection connection, RedisReplicaAcks acks) {
        Object commands = connection.getNativeConnection();
        if (!(commands instanceof RedisAsyncCommands<?, ?> standalone)) {
            // a cluster connection would send WAIT to some node, not to the master that took the write;
            // refused as an outage (fail closed) rather than a 500: the start refuses the usual setups already
            throw new IdempotencyStoreException("resilience.idempotent.redis.replica-acks needs Lettuce on a standalone "
                    + "or Sentinel master; this connection is " + commands.getClass().getName()
                    + ". Set replica-acks to 0, or use the JDBC store where a failover must never duplicate.", null);
        }
        long timeout = acks.timeout().toMillis();
        RedisFuture<Long> acknowledged = standalone.waitForReplication(acks.replicas(), timeout);
        try {
            Long replicas = acknowledged.get(timeout + REPLY_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            return replicas == null ? 0 : replicas;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IdempotencyStoreException("interrupted while Redis replicas acknowledged a write", ex);
        } catch (ExecutionException ex) {
            Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
            throw new IdempotencyStoreException("Redis WAIT failed: " + cause.getMessage(), cause);
        } catch (TimeoutException ex) {
            acknowledged.cancel(false);
            throw new IdempotencyStoreException("Redis gave no answer to WAIT within " + (timeout
                    + REPLY_GRACE_MILLIS) + " ms", ex);
        }
    }
}
