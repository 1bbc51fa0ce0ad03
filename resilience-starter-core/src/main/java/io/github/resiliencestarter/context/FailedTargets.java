package io.github.resiliencestarter.context;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The targets (service instances, as {@code host:port}) that failed earlier attempts of one retried
 * call, shared by its attempts through the trace context, so that a client-side load balancer can
 * send the next attempt elsewhere (rule R-5). Client adapters record a failed target; the balancer
 * leaves recorded ones out while another is available. Thread-safe; the set is created on the
 * first failure, so a call that never fails allocates nothing more than this object.
 */
public final class FailedTargets {

    private volatile @Nullable Set<String> failed;

    /**
     * Records a target that failed an attempt.
     *
     * @param target the instance, as {@code host:port}
     */
    public void add(String target) {
        Set<String> set = failed;
        if (set == null) {
            synchronized (this) {
                set = failed;
                if (set == null) {
                    set = ConcurrentHashMap.newKeySet(4);
                    failed = set;
                }
            }
        }
        set.add(target);
    }

    /**
     * Whether a target failed an earlier attempt.
     *
     * @param target the instance, as {@code host:port}
     * @return {@code true} when it did
     */
    public boolean contains(String target) {
        Set<String> set = failed;
        return set != null && set.contains(target);
    }

    /**
     * The failed targets so far.
     *
     * @return a snapshot, empty when none failed
     */
    public Set<String> snapshot() {
        Set<String> set = failed;
        return set == null ? Set.of() : Set.copyOf(set);
    }
}
