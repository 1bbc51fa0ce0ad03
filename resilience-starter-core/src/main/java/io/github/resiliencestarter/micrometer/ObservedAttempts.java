package io.github.resiliencestarter.micrometer;

import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.core.Stages;
import io.github.resiliencestarter.retry.AttemptTracing;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * Each attempt of a retried call as a Micrometer {@code Observation} named {@value #NAME}: with a
 * tracing bridge, a span per attempt, the child of the call's span, carrying the operation, the
 * attempt's number and, from the second attempt on, OpenTelemetry's
 * {@code http.request.resend_count}. The operation is the only low-cardinality key, so the timer
 * Micrometer records for the observation has one series per operation and outcome.
 */
public final class ObservedAttempts implements AttemptTracing {

    /** The observation's name. */
    public static final String NAME = "resilience.attempt";

    private final ObservationRegistry registry;

    /**
     * Creates the adapter.
     *
     * @param registry the observation registry
     */
    public ObservedAttempts(ObservationRegistry registry) {
        this.registry = registry;
    }

    @Override
    public <T extends @Nullable Object> T traced(String operation, int attempt, CheckedCallable<T> work)
            throws Throwable {
        Observation observation = observation(operation, attempt).start();
        try (Observation.Scope scope = observation.openScope()) {
            return work.call();
        } catch (Throwable failure) {
            observation.error(failure);
            throw failure;
        } finally {
            observation.stop();
        }
    }

    @Override
    public <T> CompletionStage<T> tracedAsync(String operation, int attempt,
            CheckedCallable<? extends CompletionStage<T>> work) throws Throwable {
        Observation observation = observation(operation, attempt).start();
        CompletableFuture<T> source;
        try (Observation.Scope scope = observation.openScope()) {
            source = work.call().toCompletableFuture();
        } catch (Throwable failure) {
            observation.error(failure);
            observation.stop();
            throw failure;
        }
        // ends with the attempt as the retrier sees it: completed, or cancelled (a hedge's loser)
        CompletableFuture<T> traced = new CompletableFuture<>();
        traced.whenComplete((value, failure) -> {
            if (traced.isCancelled()) {
                observation.highCardinalityKeyValue("resilience.retry.cancelled", "true");
            } else if (failure != null) {
                observation.error(Causes.unwrapAsync(failure));
            }
            observation.stop();
        });
        source.whenComplete((value, failure) -> {
            if (failure == null) {
                traced.complete(value);
            } else {
                traced.completeExceptionally(failure);
            }
        });
        return Stages.cancelling(traced, source);
    }

    private Observation observation(String operation, int attempt) {
        Observation observation = Observation.createNotStarted(NAME, registry)
                .contextualName("attempt " + operation)
                .lowCardinalityKeyValue("resilience.operation", operation)
                .highCardinalityKeyValue("resilience.retry.attempt", Integer.toString(attempt));
        if (attempt > 1) {
            observation.highCardinalityKeyValues(KeyValues.of("http.request.resend_count",
                    Integer.toString(attempt - 1)));
        }
        return observation;
    }
}
