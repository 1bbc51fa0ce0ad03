package io.github.resiliencestarter.idempotent.redis;

import org.jspecify.annotations.Nullable;

/**
 * A script's answer and how far replicas acknowledged it. A type of its own, free of Lettuce, so
 * the store loads without Lettuce when no acknowledgement is asked for.
 *
 * @param answer the script's answer
 * @param replicas how many replicas acknowledged it
 * @param required how many had to
 * @param unacknowledged why it does not count whatever the count, or {@code null}
 * @param <T> the answer's type
 */
record ReplicaAcknowledgement<T>(@Nullable T answer, long replicas, int required, @Nullable String unacknowledged) {

    /**
     * A write no replica had to acknowledge.
     *
     * @param answer the script's answer
     * @param <T> the answer's type
     * @return the write, counted as it is
     */
    static <T> ReplicaAcknowledgement<T> notAsked(@Nullable T answer) {
        return new ReplicaAcknowledgement<>(answer, 0, 0, null);
    }

    /** @return whether the write counts as acknowledged */
    boolean enough() {
        return unacknowledged == null && replicas >= required;
    }
}
