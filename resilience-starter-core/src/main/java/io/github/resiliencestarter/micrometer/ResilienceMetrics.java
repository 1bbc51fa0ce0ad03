package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.chaos.ChaosObserver;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitOutcome;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.idempotent.IdempotencyObserver;
import io.github.resiliencestarter.idempotent.IdempotencyOutcome;
import io.github.resiliencestarter.messaging.MessageObserver;
import io.github.resiliencestarter.retry.RetryObserver;
import io.github.resiliencestarter.retry.RetryOutcome;
import io.github.resiliencestarter.timeout.TimeoutObserver;
import io.github.resiliencestarter.timeout.TimeoutOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Records what the three annotations do as Micrometer meters (DESIGN §9):
 *
 * <ul>
 * <li>{@value #TIMEOUT_CALLS}: timer, tags {@code name}, {@code outcome} (success, timeout,
 * rejected, budget_spent); publishes p50/p99 so the timeout advisor can compare;</li>
 * <li>{@value #RETRY_CALLS}: timer, tags {@code name}, {@code outcome} (success_without_retry,
 * success_with_retry, failed_with_retry, failed_without_retry, budget_denied);</li>
 * <li>{@value #RETRY_ATTEMPTS}: counter of attempts (hedges included), tag {@code name};</li>
 * <li>{@value #RETRY_HEDGES}: counter of hedges, tags {@code name}, {@code event} (started, won);</li>
 * <li>{@value #IDEMPOTENT_CALLS}: counter, tags {@code name}, {@code outcome} (executed, replayed,
 * in_progress, key_reused, store_error, lease_lost);</li>
 * <li>{@value #CIRCUIT_CALLS}: counter, tags {@code name}, {@code outcome} (success, slow, failure,
 * ignored, not_permitted, ramp_rejected);</li>
 * <li>{@value #CIRCUIT_TRANSITIONS}: counter, tags {@code name}, {@code from}, {@code to};</li>
 * <li>{@value #CIRCUIT_STATE}: gauge per breaker and {@code state}, 1 for the state it is in, else 0.</li>
 * </ul>
 *
 * Meters are created once per name and outcome and cached, so recording costs a map lookup.
 */
public class ResilienceMetrics implements TimeoutObserver, RetryObserver, IdempotencyObserver, CircuitObserver,
        ChaosObserver, MessageObserver {

    /** Counter of faults injected by {@code resilience.chaos}, by fault and kind. */
    public static final String CHAOS_INJECTED = "resilience.chaos.injected";

    /** Messages dropped because their deadline passed before they were consumed, by destination. */
    public static final String MESSAGES_EXPIRED = "resilience.messaging.expired";

    /** Gauge of each {@code @Timeout} method's configured limit, in seconds: what p99 is compared with. */
    public static final String TIMEOUT_LIMIT = "resilience.timeout.limit";

    /**
     * The range the latency histograms cover: their buckets make p99 an aggregate across
     * instances (Prometheus' {@code histogram_quantile}), not an average of per-instance p99s.
     */
    static final Duration HISTOGRAM_MIN = Duration.ofMillis(1);

    /** The top of the latency histograms' range. */
    static final Duration HISTOGRAM_MAX = Duration.ofSeconds(60);

    /** Timer of {@code @Timeout} calls. */
    public static final String TIMEOUT_CALLS = "resilience.timeout.calls";

    /** Timer of {@code @Retry} calls. */
    public static final String RETRY_CALLS = "resilience.retry.calls";

    /** Counter of {@code @Retry} attempts. */
    public static final String RETRY_ATTEMPTS = "resilience.retry.attempts";

    /** Counter of hedges of {@code @Retry(hedgeDelay)} calls, started and won. */
    public static final String RETRY_HEDGES = "resilience.retry.hedges";

    /** Counter of {@code @Idempotent} calls. */
    public static final String IDEMPOTENT_CALLS = "resilience.idempotent.calls";

    /** Counter of calls through {@code @CircuitBreaker} breakers. */
    public static final String CIRCUIT_CALLS = "resilience.circuit-breaker.calls";

    /** Counter of breaker state changes. */
    public static final String CIRCUIT_TRANSITIONS = "resilience.circuit-breaker.transitions";

    /** Gauge of each breaker's state. */
    public static final String CIRCUIT_STATE = "resilience.circuit-breaker.state";

    private final MeterRegistry registry;

    private final Map<String, Counter[]> circuitCounters = new ConcurrentHashMap<>();

    /** Per breaker: the ordinal of its current state, read by its state gauges. */
    private final Map<String, AtomicInteger> circuitStates = new ConcurrentHashMap<>();

    private final Map<String, Timer[]> timeoutTimers = new ConcurrentHashMap<>();

    private final Map<String, AtomicLong> timeoutLimits = new ConcurrentHashMap<>();

    private final Map<String, Timer[]> retryTimers = new ConcurrentHashMap<>();

    private final Map<String, Counter> retryAttempts = new ConcurrentHashMap<>();

    private final Map<String, Counter[]> idempotentCounters = new ConcurrentHashMap<>();

    /** Per operation: hedges started, hedges won. */
    private final Map<String, Counter[]> hedgeCounters = new ConcurrentHashMap<>();

    /**
     * Creates the recorder.
     *
     * @param registry where the meters live
     */
    public ResilienceMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onCall(String circuit, CircuitOutcome outcome) {
        circuitCounters.computeIfAbsent(circuit, name -> {
            circuitState(name);
            CircuitOutcome[] outcomes = CircuitOutcome.values();
            Counter[] counters = new Counter[outcomes.length];
            for (CircuitOutcome each : outcomes) {
                counters[each.ordinal()] = Counter.builder(CIRCUIT_CALLS).tag("name", name).tag("outcome", each.tag())
                        .register(registry);
            }
            return counters;
        })[outcome.ordinal()].increment();
    }

    @Override
    public void onStateChange(String circuit, CircuitState from, CircuitState to) {
        circuitState(circuit).set(to.ordinal());
        Counter.builder(CIRCUIT_TRANSITIONS).tag("name", circuit).tag("from", from.tag()).tag("to", to.tag())
                .register(registry).increment();
    }

    @Override
    public void onRemoved(String circuit) {
        circuitCounters.remove(circuit);
        circuitStates.remove(circuit);
        for (String meter : List.of(CIRCUIT_CALLS, CIRCUIT_TRANSITIONS, CIRCUIT_STATE)) {
            for (Meter each : registry.find(meter).tag("name", circuit).meters()) {
                registry.remove(each);
            }
        }
    }

    private AtomicInteger circuitState(String circuit) {
        return circuitStates.computeIfAbsent(circuit, name -> {
            AtomicInteger current = new AtomicInteger(CircuitState.CLOSED.ordinal());
            for (CircuitState state : CircuitState.values()) {
                Gauge.builder(CIRCUIT_STATE, current, value -> value.get() == state.ordinal() ? 1 : 0)
                        .tag("name", name).tag("state", state.tag()).register(registry);
            }
            return current;
        });
    }

    @Override
    public void onLimit(String operation, Duration limit) {
        timeoutLimits.computeIfAbsent(operation, name -> {
            AtomicLong nanos = new AtomicLong();
            Gauge.builder(TIMEOUT_LIMIT, nanos, value -> value.get() / 1e9).tag("name", name).baseUnit("seconds")
                    .description("The configured limit").register(registry);
            return nanos;
        }).set(limit.toNanos());
    }

    @Override
    public void onOutcome(String operation, TimeoutOutcome outcome, long nanos) {
        timeoutTimers.computeIfAbsent(operation, name -> timers(TIMEOUT_CALLS, name, TimeoutOutcome.values(),
                TimeoutOutcome::tag))[outcome.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onComplete(String operation, RetryOutcome outcome, int attempts, long nanos) {
        retryTimers.computeIfAbsent(operation, name -> timers(RETRY_CALLS, name, RetryOutcome.values(),
                RetryOutcome::tag))[outcome.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
        retryAttempts.computeIfAbsent(operation, name -> Counter.builder(RETRY_ATTEMPTS).tag("name", name)
                .description("Attempts made by @Retry, first attempts included").register(registry)).increment(attempts);
    }

    @Override
    public void onHedge(String operation, int attempt, long delayNanos) {
        hedgeCounters(operation)[0].increment();
    }

    @Override
    public void onHedgeWon(String operation, int attempt) {
        hedgeCounters(operation)[1].increment();
    }

    private Counter[] hedgeCounters(String operation) {
        return hedgeCounters.computeIfAbsent(operation, name -> new Counter[] {
            Counter.builder(RETRY_HEDGES).tag("name", name).tag("event", "started")
                    .description("Parallel attempts started by @Retry(hedgeDelay)").register(registry),
            Counter.builder(RETRY_HEDGES).tag("name", name).tag("event", "won")
                    .description("Parallel attempts whose result was used").register(registry)});
    }

    @Override
    public void onExpired(String destination) {
        // registered once per destination by Micrometer itself; a drop is rare next to deliveries
        Counter.builder(MESSAGES_EXPIRED).tag("destination", destination)
                .description("Messages dropped unconsumed because their deadline had passed").register(registry)
                .increment();
    }

    @Override
    public void onInjected(String fault, String kind) {
        // rare by design (a rehearsal): no cache of the counters
        Counter.builder(CHAOS_INJECTED).tag("fault", fault).tag("kind", kind).register(registry).increment();
    }

    @Override
    public void onOutcome(String operation, IdempotencyOutcome outcome) {
        idempotentCounters.computeIfAbsent(operation, name -> {
            IdempotencyOutcome[] outcomes = IdempotencyOutcome.values();
            Counter[] counters = new Counter[outcomes.length];
            for (IdempotencyOutcome each : outcomes) {
                counters[each.ordinal()] = Counter.builder(IDEMPOTENT_CALLS).tag("name", name)
                        .tag("outcome", each.tag()).description("@Idempotent calls by outcome").register(registry);
            }
            return counters;
        })[outcome.ordinal()].increment();
    }

    /**
     * The timer of a {@code @Timeout} operation's successful calls, for the timeout advisor.
     *
     * @param operation the operation name
     * @return the timer, or {@code null} when the operation never ran
     */
    public @Nullable Timer timeoutSuccesses(String operation) {
        Timer[] timers = timeoutTimers.get(operation);
        return timers == null ? null : timers[TimeoutOutcome.SUCCESS.ordinal()];
    }

    private <E extends Enum<E>> Timer[] timers(String meter, String name, E[] outcomes, Function<E, String> tag) {
        Timer[] timers = new Timer[outcomes.length];
        for (E outcome : outcomes) {
            timers[outcome.ordinal()] = Timer.builder(meter).tag("name", name).tag("outcome", tag.apply(outcome))
                    .publishPercentiles(0.5, 0.99).publishPercentileHistogram().minimumExpectedValue(HISTOGRAM_MIN)
                    .maximumExpectedValue(HISTOGRAM_MAX).description("Calls by outcome").register(registry);
        }
        return timers;
    }
}
