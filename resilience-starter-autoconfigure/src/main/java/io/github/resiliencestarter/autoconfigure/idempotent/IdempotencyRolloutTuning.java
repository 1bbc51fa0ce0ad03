package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings;
import io.github.resiliencestarter.autoconfigure.tuning.TunableGroup;
import io.github.resiliencestarter.rollout.Rollouts;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Live tuning of {@code resilience.idempotent.mode}, {@code rollout} and
 * {@code instances.<name>.*}: bound and checked as at startup (the whole
 * {@code resilience.idempotent} group, so a refused value anywhere in it applies nothing), then the
 * rollouts are replaced at once. The other idempotency settings take effect at the next start.
 */
public class IdempotencyRolloutTuning implements TunableGroup {

    private final Rollouts rollouts;

    /**
     * Creates the tuning.
     *
     * @param rollouts the rollouts of {@code @Idempotent}
     */
    public IdempotencyRolloutTuning(Rollouts rollouts) {
        this.rollouts = rollouts;
    }

    @Override
    public Runnable prepare(Binder binder) {
        IdempotencyProperties properties = ResilienceSettings.bind(binder, "resilience.idempotent",
                new IdempotencyProperties());
        return rollouts.prepare(properties.defaultRollout(), properties.namedRollouts());
    }
}
