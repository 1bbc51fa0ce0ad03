package io.github.resiliencestarter.rollout;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.core.InvalidSettingException;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

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
        checkPercent(percent);
    }

    /**
     * Checks a share before it is used.
     *
     * @param percent the share enforced
     * @return the share
     * @throws InvalidSettingException when it is not between 0 and 100
     */
    public static double checkPercent(double percent) {
        if (!(percent >= 0 && percent <= 100)) {
            throw new InvalidSettingException("rollout", "must be between 0 and 100 (a percentage)", percent);
        }
        return percent;
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
        return enforcesBucket(RolloutBuckets.bucket(selector));
    }

    /**
     * Whether this request's decisions take effect, chosen by its trace id: one request gets one
     * decision in every service and on every node it crosses ({@code @Timeout}, {@code @Retry}).
     * A call outside any request, without a trace id, is drawn at random, so the share still holds.
     *
     * @param request the trace context of the call
     * @return {@code true} to enforce, {@code false} to observe
     */
    public boolean enforces(TraceContext request) {
        if (enforcesAll()) {
            return true;
        }
        String traceId = request.traceId();
        return enforcesBucket(traceId != null ? RolloutBuckets.bucket(traceId)
                : ThreadLocalRandom.current().nextInt(RolloutBuckets.BUCKETS));
    }

    private boolean enforcesBucket(int bucket) {
        // whole hundredths of a percent: 20 % is exactly buckets 0 to 1 999
        return mode == EnforcementMode.ENFORCE && bucket < Math.round(percent * 100);
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
