package io.github.resiliencestarter.rollout;

import java.util.Map;
import java.util.Objects;

/**
 * The rollout of one kind of policy ({@code @Idempotent}, say): a default and one per named
 * instance, replaced as a whole by live tuning ({@link #prepare}), so a call reads one consistent
 * set. Safe for concurrent use.
 */
public final class Rollouts {

    private volatile Snapshot current;

    private Rollouts(Snapshot snapshot) {
        this.current = snapshot;
    }

    /**
     * Every instance enforced at 100 %.
     *
     * @return a new holder
     */
    public static Rollouts enforceAll() {
        return new Rollouts(new Snapshot(RolloutPolicy.ENFORCE_ALL, Map.of()));
    }

    /**
     * The rollout of a named instance, or the default when it has none of its own.
     *
     * @param name the instance (for {@code @Idempotent}, its name)
     * @return the policy
     */
    public RolloutPolicy policy(String name) {
        Snapshot snapshot = current;
        RolloutPolicy own = snapshot.named.isEmpty() ? null : snapshot.named.get(name);
        return own != null ? own : snapshot.defaults;
    }

    /**
     * Prepares new settings, already checked, to be put in force by the returned step, so a reload
     * applies all of them or none.
     *
     * @param defaults the default rollout
     * @param named the rollout of each named instance
     * @return the step that puts them in force
     */
    public Runnable prepare(RolloutPolicy defaults, Map<String, RolloutPolicy> named) {
        Snapshot next = new Snapshot(Objects.requireNonNull(defaults, "defaults"), Map.copyOf(named));
        return () -> current = next;
    }

    private record Snapshot(RolloutPolicy defaults, Map<String, RolloutPolicy> named) {
    }
}
