package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.CheckedCallable;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * Gives each attempt of a retried call a span of its own, so that a trace shows every attempt, its
 * number and how it ended. The retrier calls it on the attempt's own thread, inside the attempt's
 * trace context (a hedge's included), so the span is a child of whatever span the call was made in.
 * {@link #NONE} by default; the Micrometer adapter makes each attempt an {@code Observation}.
 */
public interface AttemptTracing {

    /** No spans: the attempt runs as it is. */
    AttemptTracing NONE = new AttemptTracing() {
        @Override
        public <T extends @Nullable Object> T traced(String operation, int attempt, CheckedCallable<T> work)
                throws Throwable {
            return work.call();
        }

        @Override
        public <T> CompletionStage<T> tracedAsync(String operation, int attempt,
                CheckedCallable<? extends CompletionStage<T>> work) throws Throwable {
            return work.call();
        }
    };

    /**
     * Runs one blocking attempt inside its span.
     *
     * @param operation the retried operation's name
     * @param attempt the attempt's number, from 1
     * @param work the attempt
     * @param <T> its result type
     * @return its result
     * @throws Throwable its failure, unchanged
     */
    <T extends @Nullable Object> T traced(String operation, int attempt, CheckedCallable<T> work) throws Throwable;

    /**
     * Starts one asynchronous attempt inside its span, which ends when the attempt's stage completes.
     *
     * @param operation the retried operation's name
     * @param attempt the attempt's number, from 1
     * @param work starts the attempt
     * @param <T> its result type
     * @return the attempt's stage
     * @throws Throwable what starting it threw, unchanged
     */
    <T> CompletionStage<T> tracedAsync(String operation, int attempt, CheckedCallable<? extends CompletionStage<T>> work)
            throws Throwable;
}
