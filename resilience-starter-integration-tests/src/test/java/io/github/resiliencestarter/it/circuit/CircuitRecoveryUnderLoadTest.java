package io.github.resiliencestarter.it.circuit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.circuit.CircuitBreakerAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.circuit.CircuitObserver;
import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitRegistry;
import io.github.resiliencestarter.circuit.CircuitState;
import io.github.resiliencestarter.retry.RetryObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

/**
 * Issue 28's run: a real HTTP downstream fails every request for 5 s and then recovers, under a
 * steady load of 8 threads calling {@code @Retry} + {@code @CircuitBreaker}. Requests are counted
 * where they arrive, at the downstream, per 250 ms; the breaker's transitions are timed as they
 * happen. Prints the timeline docs/circuit-breaker.md plots.
 */
class CircuitRecoveryUnderLoadTest {

    private static final long BUCKET_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private static final int BUCKETS = 52;

    private static final long FAILING_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static final long WAIT_IN_OPEN_MILLIS = 2_000;

    private static final long WARM_UP_MILLIS = 4_000;

    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(12);

    /** One transition of the breaker: when, and to which state. */
    record Transition(long at, CircuitState from, CircuitState to) {
    }

    /** Shared with the context's beans; reset per run. */
    static final class Run {

        final long started = System.nanoTime();

        final AtomicLongArray arrivals = new AtomicLongArray(BUCKETS);

        final AtomicLongArray refused = new AtomicLongArray(BUCKETS);

        final List<Long> arrivalTimes = new CopyOnWriteArrayList<>();

        final List<Transition> transitions = new CopyOnWriteArrayList<>();

        /** Retries whose wait began while the breaker was open, as the breaker itself said then. */
        final AtomicInteger waitsAgainstOpen = new AtomicInteger();

        final AtomicInteger waits = new AtomicInteger();

        int bucket(long at) {
            return (int) Math.min(BUCKETS - 1, (at - started) / BUCKET_NANOS);
        }
    }

    private static final AtomicReference<Run> RUN = new AtomicReference<>();

    private HttpServer downstream;

    @AfterEach
    void stop() {
        if (downstream != null) {
            downstream.stop(0);
        }
    }

    private HttpServer start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/stock", exchange -> {
            Run run = RUN.get();
            long now = System.nanoTime();
            run.arrivals.incrementAndGet(run.bucket(now));
            run.arrivalTimes.add(now);
            boolean failing = now - run.started < FAILING_NANOS;
            // no body: the answer leaves in one write, so no 40 ms Nagle/delayed-ACK stall bounds the load
            exchange.sendResponseHeaders(failing ? 503 : 204, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Configuration(proxyBeanMethods = false)
    static class Clients {

        @Bean
        Inventory inventory() {
            return new Inventory();
        }

        @Bean
        CircuitObserver timeline() {
            return new CircuitObserver() {
                @Override
                public void onStateChange(String circuit, CircuitState from, CircuitState to) {
                    RUN.get().transitions.add(new Transition(System.nanoTime(), from, to));
                }
            };
        }

        @Bean
        RetryObserver waits(ObjectProvider<CircuitRegistry> registry) {
            return new RetryObserver() {
                @Override
                public void onRetry(String operation, int nextAttempt, Throwable error, long delayNanos) {
                    Run run = RUN.get();
                    run.waits.incrementAndGet();
                    if (registry.getObject().guard("inventory").state() == CircuitState.OPEN) {
                        run.waitsAgainstOpen.incrementAndGet();
                    }
                }
            };
        }
    }

    /** The client of the downstream: a read, retried, behind the breaker. */
    public static class Inventory {

        private volatile RestClient client;

        public void target(String uri) {
            client = RestClient.builder().baseUrl(uri).build();
        }

        @Retry(name = "inventory", idempotent = true, maxAttempts = 3)
        @CircuitBreaker(name = "inventory")
        public String stock() {
            return client.get().uri("/stock").retrieve().body(String.class);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, RetryAutoConfiguration.class,
                    CircuitBreakerAutoConfiguration.class))
            .withUserConfiguration(Clients.class)
            .withPropertyValues("resilience.retry.instances.inventory.delay=20ms",
                    "resilience.retry.instances.inventory.max-delay=40ms",
                    "resilience.circuit-breaker.instances.inventory.sliding-window-size=20",
                    "resilience.circuit-breaker.instances.inventory.minimum-calls=10",
                    "resilience.circuit-breaker.instances.inventory.failure-rate-threshold=50",
                    "resilience.circuit-breaker.instances.inventory.wait-in-open-state=" + WAIT_IN_OPEN_MILLIS + "ms",
                    "resilience.circuit-breaker.instances.inventory.half-open-calls=3",
                    "resilience.circuit-breaker.instances.inventory.warm-up=" + WARM_UP_MILLIS + "ms",
                    "resilience.circuit-breaker.instances.inventory.warm-up-start-percent=10");

    @Test
    void R6_theBreakerOpensHoldsTheDownstreamOffProbesOnScheduleAndRampsTheRecovery() throws Exception {
        downstream = start();
        runner.run(context -> {
            Inventory inventory = context.getBean(Inventory.class);
            inventory.target("http://127.0.0.1:" + downstream.getAddress().getPort());
            Run run = new Run();
            RUN.set(run);
            ExecutorService callers = Executors.newFixedThreadPool(8);
            List<Future<?>> load = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                load.add(callers.submit(() -> {
                    while (System.nanoTime() - run.started < RUN_NANOS) {
                        try {
                            inventory.stock();
                        } catch (CircuitOpenException refused) {
                            run.refused.incrementAndGet(run.bucket(System.nanoTime()));
                        } catch (HttpServerErrorException failed) {
                            // the downstream's 503, after the retries the budget and the breaker allowed
                        }
                        try {
                            Thread.sleep(5); // a steady offered load: one call per thread every ~5 ms
                        } catch (InterruptedException ex) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }));
            }
            for (Future<?> each : load) {
                each.get(60, TimeUnit.SECONDS);
            }
            callers.shutdown();
            print(run);

            List<Transition> transitions = List.copyOf(run.transitions);
            // opened within the failing period, and at least twice: the probes during it failed
            List<Transition> opened = transitions.stream().filter(t -> t.to() == CircuitState.OPEN).toList();
            assertThat(opened).hasSizeGreaterThanOrEqualTo(2);
            assertThat(opened.get(0).at() - run.started).isLessThan(FAILING_NANOS);

            // while open, nothing reached the downstream (100 ms grace for requests already on the wire)
            for (Transition open : opened) {
                long until = transitions.stream().filter(t -> t.at() > open.at() && t.from() == CircuitState.OPEN)
                        .mapToLong(Transition::at).findFirst().orElse(Long.MAX_VALUE);
                long during = run.arrivalTimes.stream()
                        .filter(at -> at > open.at() + TimeUnit.MILLISECONDS.toNanos(100) && at < until).count();
                assertThat(during).as("requests that reached the downstream while the circuit was open").isZero();
                // probes at the configured interval: half-open once the wait has passed, and not much later.
                // Both ends are stamped by the observer after the transition, so the opening's stamp may lag
                // its transition by a scheduling delay (CI saw 9 ms on 2 cores): 50 ms early is allowed, which
                // still tells the configured 2 s from any shorter wait a test would notice
                assertThat(until - open.at()).isBetween(TimeUnit.MILLISECONDS.toNanos(WAIT_IN_OPEN_MILLIS - 50),
                        TimeUnit.MILLISECONDS.toNanos(WAIT_IN_OPEN_MILLIS + 500));
            }

            // the recovery ramps: admitted requests per second rise over the warm-up, not in one step
            Transition ramp = transitions.stream().filter(t -> t.to() == CircuitState.RAMPING).findFirst()
                    .orElseThrow(() -> new AssertionError("never ramped: " + transitions));
            assertThat(ramp.at() - run.started).isGreaterThanOrEqualTo(FAILING_NANOS);
            long[] perSecond = new long[4];
            for (long at : run.arrivalTimes) {
                long since = at - ramp.at();
                if (since >= 0 && since < TimeUnit.SECONDS.toNanos(4)) {
                    perSecond[(int) (since / TimeUnit.SECONDS.toNanos(1))]++;
                }
            }
            System.out.printf("admitted per second of the ramp: %d %d %d %d%n", perSecond[0], perSecond[1],
                    perSecond[2], perSecond[3]);
            // every later second admits more than the first; near the ramp's end the load generator's own
            // rate on 2 busy cores can cap a second (CI saw 744 then 724), so a step may level off by 5 %
            for (int second = 1; second < 4; second++) {
                assertThat(perSecond[second]).as("second %d of the ramp", second).isGreaterThan(perSecond[0])
                        .isGreaterThanOrEqualTo(perSecond[second - 1] * 95 / 100);
            }
            assertThat(perSecond[0] * 2).isLessThan(perSecond[3]);
            assertThat(transitions).anyMatch(t -> t.from() == CircuitState.RAMPING && t.to() == CircuitState.CLOSED);

            // no retry waited against a circuit the breaker knew to be open
            assertThat(run.waits.get()).isPositive();
            // (a wait decided a microsecond before another thread's failure opened the circuit is a race,
            // not a wait against a known-open circuit: at most one per opening)
            assertThat(run.waitsAgainstOpen.get()).as("retry waits begun while the circuit was open")
                    .isLessThanOrEqualTo(opened.size());
        });
    }

    private static void print(Run run) {
        StringBuilder out = new StringBuilder("t(s)   admitted  refused\n");
        for (int i = 0; i < BUCKETS; i++) {
            out.append(String.format("%5.2f %8d %8d  %s%n", i * 0.25, run.arrivals.get(i), run.refused.get(i),
                    "#".repeat((int) Math.min(80, run.arrivals.get(i) / 4))));
        }
        for (Transition t : run.transitions) {
            out.append(String.format("%5.2f s  %s -> %s%n", (t.at() - run.started) / 1e9, t.from().tag(), t.to().tag()));
        }
        out.append("retry waits: ").append(run.waits.get()).append(", begun against an open circuit: ")
                .append(run.waitsAgainstOpen.get()).append('\n');
        System.out.print(out);
    }
}
