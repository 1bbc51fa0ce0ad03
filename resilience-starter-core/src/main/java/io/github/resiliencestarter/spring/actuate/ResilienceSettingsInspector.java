package io.github.resiliencestarter.spring.actuate;

import io.github.resiliencestarter.micrometer.ResilienceMetrics;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.backoff.BackOff;
import io.github.resiliencestarter.spring.aop.RetryOperation;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.spring.aop.TimeoutOperation;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Checks the effective settings against the rules that can only be checked with data or across
 * annotations (rule O-5): a timeout below 1.3 × the observed p99 of successful calls (T-2, once
 * enough calls were seen); a retry loop whose worst case cannot fit the method's own timeout
 * a retry that rests only on {@code @Retry(idempotent = true)}. Each warning is also
 * logged once. The checks run when the context has started, so what needs no call data is
 * reported at startup, not first when someone reads the endpoint.
 */
public class ResilienceSettingsInspector implements ApplicationListener<ContextRefreshedEvent> {

    /** Headroom a timeout should keep above the downstream p99 (rule T-2). */
    public static final double P99_HEADROOM = 1.3;

    /** Successful calls needed before the p99 is trusted. */
    public static final long DEFAULT_MIN_SAMPLES = 100;

    private static final Logger log = LoggerFactory.getLogger(ResilienceSettingsInspector.class);

    private final @Nullable TimeoutOperationSource timeouts;

    private final @Nullable RetryOperationSource retries;

    private final @Nullable ResilienceMetrics metrics;

    private final long minSamples;

    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /**
     * Creates the advisor.
     *
     * @param timeouts the resolved {@code @Timeout} methods, or {@code null}
     * @param retries the resolved {@code @Retry} methods, or {@code null}
     * @param metrics the recorded timers, or {@code null} without Micrometer (no T-2 check then)
     * @param minSamples successful calls needed before the p99 is trusted
     */
    public ResilienceSettingsInspector(@Nullable TimeoutOperationSource timeouts,
            @Nullable RetryOperationSource retries, @Nullable ResilienceMetrics metrics, long minSamples) {
        this.timeouts = timeouts;
        this.retries = retries;
        this.metrics = metrics;
        this.minSamples = minSamples;
    }

    /**
     * Logs the warnings known once every annotated method is resolved: the start of the
     * application (rule O-5).
     *
     * @param event the refresh of the context
     */
    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        warnings();
    }

    /**
     * The current warnings; new ones are logged.
     *
     * @return the warnings, one sentence each
     */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        List<TimeoutOperation> timeoutOps = timeouts != null ? timeouts.operations() : List.of();
        List<RetryOperation> retryOps = retries != null ? retries.operations() : List.of();
        for (TimeoutOperation timeout : timeoutOps) {
            p99Warning(timeout).ifPresent(warnings::add);
            for (RetryOperation retry : retryOps) {
                if (retry.name().equals(timeout.name())) {
                    retryFitWarning(timeout, retry).ifPresent(warnings::add);
                }
            }
        }
        for (RetryOperation retry : retryOps) {
            if (retry.declaredIdempotent()) {
                warnings.add("R-1: @Retry on " + retry.name() + " is allowed only by @Retry(idempotent = true); "
                        + "nothing checks that repeating it is harmless (consider @Idempotent)");
            }
        }
        for (String warning : warnings) {
            if (logged.add(warning)) {
                log.warn(warning);
            }
        }
        return warnings;
    }

    private Optional<String> p99Warning(TimeoutOperation timeout) {
        if (metrics == null) {
            return Optional.empty();
        }
        Timer successes = metrics.timeoutSuccesses(timeout.name());
        if (successes == null || successes.count() < minSamples) {
            return Optional.empty();
        }
        for (ValueAtPercentile value : successes.takeSnapshot().percentileValues()) {
            if (value.percentile() == 0.99) {
                double p99Millis = value.value(TimeUnit.MILLISECONDS);
                long timeoutMillis = timeout.guard().config().timeout().toMillis();
                if (timeoutMillis < p99Millis * P99_HEADROOM) {
                    return Optional.of(String.format(Locale.ROOT, "T-2: @Timeout of %s is %d ms, "
                            + "below 1.3 x its observed p99 of %.0f ms over %d calls: expect false timeouts; "
                            + "consider %d ms", timeout.name(), timeoutMillis, p99Millis, successes.count(),
                            (long) Math.ceil(p99Millis * P99_HEADROOM)));
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<String> retryFitWarning(TimeoutOperation timeout, RetryOperation retry) {
        RetryConfig policy = retry.retrier().config();
        BackOff backOff = policy.backOff();
        long waits = 0;
        for (int i = 1; i < policy.maxAttempts(); i++) {
            waits += backOff.delayNanos(i, ThreadLocalRandom.current());
        }
        Duration attempt = policy.attemptTimeout();
        long attempts = attempt == null ? 0 : attempt.toNanos() * policy.maxAttempts();
        Duration worst = Duration.ofNanos(waits + attempts);
        Duration limit = timeout.guard().config().timeout();
        if (worst.compareTo(limit) > 0) {
            return Optional.of("R-3: @Retry on " + retry.name() + " may need " + worst.toMillis() + " ms ("
                    + policy.maxAttempts() + " attempts" + (attempt == null ? "" : " x " + attempt.toMillis() + " ms")
                    + " + back-off) but its @Timeout is " + limit.toMillis() + " ms: the last attempts never run");
        }
        return Optional.empty();
    }
}
