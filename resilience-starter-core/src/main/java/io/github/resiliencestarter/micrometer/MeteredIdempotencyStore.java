package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.ClaimResult;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.LeaseExtension;
import io.github.resiliencestarter.idempotent.support.ForwardingIdempotencyStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Times every operation of an idempotency store ({@value #STORE_OPERATIONS}, tags
 * {@code operation} and {@code store}).
 */
public class MeteredIdempotencyStore extends ForwardingIdempotencyStore {

    /** Timer of store operations. */
    public static final String STORE_OPERATIONS = "resilience.idempotent.store";

    private final Timer claim;

    private final Timer complete;

    private final Timer release;

    private final Timer extend;

    private final Timer extendBatch;

    private final Timer find;

    /**
     * Wraps a store.
     *
     * @param delegate the store
     * @param registry where the timers live
     */
    public MeteredIdempotencyStore(IdempotencyStore delegate, MeterRegistry registry) {
        super(delegate);
        String store = delegate().getClass().getSimpleName();
        this.claim = timer(registry, "claim", store);
        this.complete = timer(registry, "complete", store);
        this.release = timer(registry, "release", store);
        this.extend = timer(registry, "extend_lease", store);
        this.extendBatch = timer(registry, "extend_leases", store);
        this.find = timer(registry, "find", store);
    }

    @Override
    public ClaimResult claim(Claim request) {
        return timed(claim, () -> delegate().claim(request));
    }

    @Override
    public boolean complete(Completion completion) {
        return timed(complete, () -> delegate().complete(completion));
    }

    @Override
    public boolean release(String key, String ownerToken) {
        return timed(release, () -> delegate().release(key, ownerToken));
    }

    @Override
    public boolean extendLease(String key, String ownerToken, long leaseMillis) {
        return timed(extend, () -> delegate().extendLease(key, ownerToken, leaseMillis));
    }

    @Override
    public boolean[] extendLeases(List<LeaseExtension> leases) {
        return timed(extendBatch, () -> delegate().extendLeases(leases));
    }

    @Override
    public @Nullable IdempotencyRecord find(String key) {
        return timed(find, () -> delegate().find(key));
    }

    private static Timer timer(MeterRegistry registry, String operation, String store) {
        return Timer.builder(STORE_OPERATIONS).tag("operation", operation).tag("store", store)
                .publishPercentileHistogram().minimumExpectedValue(ResilienceMetrics.HISTOGRAM_MIN)
                .maximumExpectedValue(ResilienceMetrics.HISTOGRAM_MAX).description("Idempotency store operations").register(registry);
    }

    private static <T> T timed(Timer timer, Supplier<T> operation) {
        long start = System.nanoTime();
        try {
            return operation.get();
        } finally {
            timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }
}
