package io.github.resiliencestarter.spring.actuate;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * DOWN when the idempotency store does not answer: with fail-closed (the default), idempotent
 * requests are then refused with 503, which is what a load balancer should know.
 */
public class IdempotencyStoreHealthIndicator extends AbstractHealthIndicator {

    private final IdempotencyStore store;

    private final boolean failOpen;

    /**
     * Creates the indicator.
     *
     * @param store the store
     * @param failOpen whether requests run without idempotency when the store is down
     */
    public IdempotencyStoreHealthIndicator(IdempotencyStore store, boolean failOpen) {
        super("Idempotency store check failed");
        this.store = store;
        this.failOpen = failOpen;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("store", store.getClass().getSimpleName()).withDetail("failOpen", failOpen);
        try {
            store.ping();
            builder.up();
        } catch (RuntimeException ex) {
            // fail-open keeps serving (without idempotency): degraded, not down
            if (failOpen) {
                builder.status("DEGRADED").withDetail("error", ex.getClass().getSimpleName());
            } else {
                builder.down().withDetail("error", ex.getClass().getSimpleName());
            }
        }
    }
}
