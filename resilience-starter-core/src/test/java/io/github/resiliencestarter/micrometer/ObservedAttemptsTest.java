package io.github.resiliencestarter.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.retry.HedgePolicy;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import io.micrometer.common.KeyValue;
import io.micrometer.context.ContextRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Issue 48, item 1: each attempt of a retried call is an observation of its own, under the call's. */
class ObservedAttemptsTest {

    private final List<Observation.Context> attempts = new CopyOnWriteArrayList<>();

    private final Map<Observation.Context, Throwable> errors = new ConcurrentHashMap<>();

    private final ObservationRegistry registry = ObservationRegistry.create();

    ObservedAttemptsTest() {
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                if (ObservedAttempts.NAME.equals(context.getName())) {
                    attempts.add(context);
                }
            }

            @Override
            public void onError(Observation.Context context) {
                Throwable error = context.getError();
                if (error != null) {
                    errors.put(context, error);
                }
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
    }

    private static String key(Observation.Context context, String name) {
        KeyValue value = context.getAllKeyValues().stream().filter(each -> each.getKey().equals(name)).findFirst()
                .orElse(null);
        return value == null ? null : value.getValue();
    }

    @Test
    void O1_eachBlockingAttemptIsAChildObservationNumberedWithItsResendCount() throws Throwable {
        Retrier retrier = Retrier.builder("Orders.read", RetryConfig.custom()
                .backOff(new FixedBackOff(Duration.ofMillis(1))).build())
                .attemptTracing(new ObservedAttempts(registry)).build();
        AtomicInteger calls = new AtomicInteger();
        Observation request = Observation.createNotStarted("http.server.requests", registry);

        request.observeChecked(() -> retrier.call(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new RetryableException("BUSY", "busy");
            }
            return "ok";
        }));

        assertThat(attempts).hasSize(3);
        assertThat(attempts).extracting(context -> key(context, "resilience.retry.attempt"))
                .containsExactly("1", "2", "3");
        assertThat(attempts).extracting(context -> key(context, "http.request.resend_count"))
                .containsExactly(null, "1", "2");
        assertThat(attempts).extracting(context -> key(context, "resilience.operation")).containsOnly("Orders.read");
        assertThat(attempts).extracting(Observation.Context::getParentObservation).containsOnly(request);
        assertThat(errors).containsOnlyKeys(attempts.get(0), attempts.get(1));
    }

    @Test
    void O1_anAsyncAttemptsObservationEndsWithItsStageAndAHedgesIsAChildOfTheCallsToo() throws Throwable {
        // the hedge starts on a timer thread: the request's observation reaches it through the propagator
        ObservationThreadLocalAccessor current = new ObservationThreadLocalAccessor();
        current.setObservationRegistry(registry);
        TimeoutRuntime runtime = TimeoutRuntime.builder().propagator(new ContextSnapshotPropagator(
                new ContextRegistry().registerThreadLocalAccessor(current))).build();
        try {
            Retrier retrier = Retrier.builder("Orders.hedged", RetryConfig.custom().maxAttempts(2)
                    .hedge(HedgePolicy.after(Duration.ofMillis(20))).build()).timeoutRuntime(runtime)
                    .attemptTracing(new ObservedAttempts(registry)).build();
            CompletableFuture<String> slow = new CompletableFuture<>();
            CountDownLatch bothStopped = new CountDownLatch(2);
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public void onStop(Observation.Context context) {
                    if (ObservedAttempts.NAME.equals(context.getName())) {
                        bothStopped.countDown();
                    }
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }
            });
            AtomicInteger calls = new AtomicInteger();
            Observation request = Observation.createNotStarted("http.server.requests", registry).start();
            String result;
            try (Observation.Scope scope = request.openScope()) {
                result = retrier.callAsync(() -> calls.incrementAndGet() == 1 ? slow
                        : CompletableFuture.completedFuture("hedge")).get(30, TimeUnit.SECONDS);
            } finally {
                request.stop();
            }

            assertThat(result).isEqualTo("hedge");
            assertThat(bothStopped.await(30, TimeUnit.SECONDS)).as("the loser's observation ends too").isTrue();
            assertThat(attempts).extracting(Observation.Context::getParentObservation).as("the hedge's too")
                    .containsOnly(request);
        } finally {
            runtime.close();
        }
    }
}
