package io.github.resiliencestarter.spring.actuate;

import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The idempotency store's health, independent of the Boot line: DOWN when the store does not
 * answer and requests are refused (fail-closed, the default), which is what a load balancer should
 * know; DEGRADED when they run without idempotency (fail-open); UP without a ping while no
 * {@code @Idempotent} method exists (no store was created: nothing can fail). Each Boot line's health indicator
 * only translates a {@link HealthReport} into its own {@code Health} type.
 */
public final class IdempotencyStoreHealth {

    /** Status when requests keep being served without idempotency while the store is down. */
    public static final String DEGRADED = "DEGRADED";

    private final IdempotencyActivation activation;

    private final boolean failOpen;

    /**
     * Creates the check.
     *
     * @param activation the store once in use; the check never creates it
     * @param failOpen whether requests run without idempotency when the store is down
     */
    public IdempotencyStoreHealth(IdempotencyActivation activation, boolean failOpen) {
        this.activation = Objects.requireNonNull(activation, "activation");
        this.failOpen = failOpen;
    }

    /**
     * Pings the store.
     *
     * @return the status code ({@code UP}, {@code DOWN} or {@link #DEGRADED}) and its details
     */
    public HealthReport check() {
        Map<String, Object> details = new LinkedHashMap<>();
        IdempotencyStore store = activation.storeIfActive();
        if (store == null) {
            details.put("store", "none: no @Idempotent method");
            return new HealthReport("UP", details);
        }
        details.put("store", store.getClass().getSimpleName());
        details.put("failOpen", failOpen);
        try {
            store.ping();
            return new HealthReport("UP", details);
        } catch (RuntimeException ex) {
            details.put("error", ex.getClass().getSimpleName());
            return new HealthReport(failOpen ? DEGRADED : "DOWN", details);
        }
    }
}
