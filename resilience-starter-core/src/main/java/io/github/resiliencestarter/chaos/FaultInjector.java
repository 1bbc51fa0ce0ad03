package io.github.resiliencestarter.chaos;

import io.github.resiliencestarter.context.TraceContextHolder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects the configured faults: before an annotated method runs ({@link #beforeMethod}) or
 * instead of an outbound request ({@link #beforeRequest}). Each injection is logged at WARN with
 * the trace id and counted. Thread-safe.
 *
 * <p>A fault's share is spread evenly over the calls it matches, not drawn at random: a share of 30
 * injects 3 calls of every 10, never two in a row below 50, so a rehearsal gives the same result
 * each time it runs, and a retry after an injected failure is not injected again by chance.
 */
public final class FaultInjector {

    private static final Logger log = LoggerFactory.getLogger(FaultInjector.class);

    private final Map<String, ChaosFault> byMethod = new HashMap<>();

    private final Map<String, ChaosFault> byClient = new HashMap<>();

    /** Per fault, the matching calls counted so far: where the next one falls in the even spread. */
    private final Map<String, AtomicLong> matched = new HashMap<>();

    private final Supplier<Set<String>> requested;

    private final ChaosObserver observer;

    /**
     * Creates the injector.
     *
     * @param faults the faults; at most one per method and one per client
     * @param requested the fault names the current request asks for (the chaos header, from an allowed caller)
     * @param observer hears every injection
     * @throws IllegalArgumentException when two faults target the same method or client
     */
    public FaultInjector(List<ChaosFault> faults, Supplier<Set<String>> requested, ChaosObserver observer) {
        for (ChaosFault fault : faults) {
            Map<String, ChaosFault> index = fault.method() != null ? byMethod : byClient;
            String target = Objects.requireNonNull(fault.method() != null ? fault.method() : fault.client());
            ChaosFault other = index.putIfAbsent(target, fault);
            if (other != null) {
                throw new IllegalArgumentException("faults " + other.name() + " and " + fault.name() + " both target "
                        + target + ": one fault per target");
            }
            matched.put(fault.name(), new AtomicLong());
        }
        this.requested = requested;
        this.observer = observer;
    }

    /**
     * Injects the method's fault into this call, if it is due: waits its latency (an interrupt
     * ends the wait, as it would end a slow call), then throws its exception.
     *
     * @param operation the method's operation name
     * @throws Throwable the fault's exception, or {@link InterruptedException} when interrupted while waiting
     */
    public void beforeMethod(String operation) throws Throwable {
        ChaosFault fault = due(byMethod.get(operation));
        if (fault != null) {
            inject(fault, operation);
            if (fault.exception() != null) {
                throw fault.newException();
            }
        }
    }

    /**
     * Injects the fault of an outbound request's destination, if it is due: waits its latency, then
     * throws its exception or returns its status, to be answered instead of sending the request.
     *
     * @param host the destination's host
     * @param port its port, or -1 when the address has none
     * @return the status to answer with, or {@code null} to send the request
     * @throws Throwable the fault's exception, or {@link InterruptedException} when interrupted while waiting
     */
    public @Nullable Integer beforeRequest(String host, int port) throws Throwable {
        if (byClient.isEmpty()) {
            return null;
        }
        ChaosFault fault = byClient.get(host + ":" + port);
        String target = host + ":" + port;
        if (fault == null) {
            fault = byClient.get(host);
            target = host;
        }
        fault = due(fault);
        if (fault == null) {
            return null;
        }
        inject(fault, target);
        if (fault.exception() != null) {
            throw fault.newException();
        }
        return fault.status();
    }

    /** The fault when this call gets it: asked for when it needs asking, and within its share. */
    private @Nullable ChaosFault due(@Nullable ChaosFault fault) {
        if (fault == null || (fault.trigger() == ChaosTrigger.HEADER && !requested.get().contains(fault.name()))) {
            return null;
        }
        if (fault.percent() >= 100) {
            return fault;
        }
        // the call numbered n is injected when the running total of injections, n × share, steps past an integer
        long n = Objects.requireNonNull(matched.get(fault.name()), "every fault has its counter").getAndIncrement();
        return Math.floor((n + 1) * fault.percent() / 100) > Math.floor(n * fault.percent() / 100) ? fault : null;
    }

    private void inject(ChaosFault fault, String target) throws InterruptedException {
        Duration latency = fault.latency();
        Class<? extends Throwable> exception = fault.exception();
        String delay = latency != null ? "latency " + latency.toMillis() + " ms" : null;
        String failure = exception != null ? "exception " + exception.getSimpleName()
                : fault.status() != null ? "status " + fault.status() : null;
        String kinds = delay != null && failure != null ? delay + " then " + failure : delay != null ? delay
                : String.valueOf(failure);
        log.warn("Chaos: injecting {} into {} (fault {}, trace {}); resilience.chaos.enabled=false stops it", kinds,
                target, fault.name(), TraceContextHolder.current().traceId());
        if (latency != null) {
            observer.onInjected(fault.name(), "latency");
            Thread.sleep(latency.toMillis());
        }
        if (exception != null) {
            observer.onInjected(fault.name(), "exception");
        }
        if (fault.status() != null) {
            observer.onInjected(fault.name(), "status");
        }
    }
}
