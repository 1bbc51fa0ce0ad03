package io.github.resiliencestarter.rollout;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.util.Objects;

/**
 * How one policy is rolled out: its mode, and the share of requests (0 to 100 %) it enforces in
 * mode {@link EnforcementMode#ENFORCE}. The others are observed. Immutable.
 *
 * @param mode enforce or observe
 * @param percent the share enforced in mode enforce, 0 to 100
 */
public record RolloutPolicy(EnforcementMode mode, double percent) {

    /** Every request enforced: the default. */
    public static final RolloutPolicy ENFORCE_ALL = new RolloutPolicy(EnforcementMode.ENFORCE, 100);

    /**
     * Checks the values.
     *
     * @throws InvalidSettingException when the share is not between 0 and 100
     */
    public RolloutPolicy {
        Objects.requireNonNull(mode, "mode");
        if (!(percent >= 0 && percent <= 100)) {
            throw new InvalidSettingException("rollout", "must be between 0 and 100 (a percentage)", percent);
        }
    }

    /**
     * Whether this request's decisions take effect.
     *
     * @param selector what identifies the request on every node (the idempotency key, the trace id)
     * @return {@code true} to enforce, {@code false} to observe
     */
    public boolean enforces(CharSequence selector) {
        if (enforcesAll()) {
            // the default: no hash to compute
            return true;
        }
        // whole hundredths of a percent: 20 % is exactly buckets 0 to 1 999
        return mode == EnforcementMode.ENFORCE && RolloutBuckets.bucket(selector) < Math.round(percent * 100);
    }

    /**
     * Whether every request is enforced, so no selector need be looked at.
     *
     * @return {@code true} for mode enforce at 100 %
     */
    public boolean enforcesAll() {
        return mode == EnforcementMode.ENFORCE && percent >= 100;
    }
}
