package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.core.Causes;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * A unary gRPC service method ({@code void call(Request, StreamObserver<Response>)}) seen as a
 * method that returns a {@code CompletionStage<Response>}, so {@code @Idempotent}, {@code @Retry},
 * {@code @Timeout} and {@code @CircuitBreaker} govern its answer as they govern a stage: each layer
 * hands the method an observer of its own, takes the answer as a stage, and passes what it decides
 * on to the observer it was given. An answer is one {@code onNext} and {@code onCompleted}, or one
 * {@code onError}.
 */
public final class UnaryObserver {

    private UnaryObserver() {
    }

    /**
     * Proceeds with the invocation, the observer argument replaced by one that completes a stage.
     * The argument is put back afterwards, so that what runs later (a fallback, a later attempt's
     * copy) sees the observer this layer answers.
     *
     * @param invocation the call
     * @param observerIndex the position of the {@code StreamObserver} parameter
     * @return the answer, as a stage
     */
    public static CompletionStage<Object> proceed(MethodInvocation invocation, int observerIndex) {
        Object[] args = invocation.getArguments();
        Object given = args[observerIndex];
        Answer answer = new Answer();
        args[observerIndex] = answer;
        try {
            invocation.proceed();
        } catch (Throwable ex) {
            answer.onError(ex);
        } finally {
            args[observerIndex] = given;
        }
        return answer.result;
    }

    /**
     * Calls a method of the same shape (a fallback) with its own observer, and takes its answer.
     *
     * @param args the arguments, the observer among them; not changed
     * @param observerIndex the position of the observer
     * @param method calls the method with the arguments it is given
     * @return the answer, as a stage
     */
    public static CompletionStage<Object> answerOf(Object[] args, int observerIndex, Call method) {
        Object[] own = args.clone();
        Answer answer = new Answer();
        own[observerIndex] = answer;
        try {
            method.call(own);
        } catch (Throwable ex) {
            answer.onError(ex);
        }
        return answer.result;
    }

    /**
     * Passes a decided answer on to the observer the call was given.
     *
     * @param result the answer
     * @param args the call's arguments
     * @param observerIndex the position of the observer
     */
    @SuppressWarnings("unchecked")
    public static void answer(CompletionStage<?> result, Object[] args, int observerIndex) {
        StreamObserver<Object> observer = (StreamObserver<Object>) args[observerIndex];
        result.whenComplete((value, failure) -> {
            if (failure != null) {
                observer.onError(Causes.unwrapAsync(failure));
            } else {
                observer.onNext(value);
                observer.onCompleted();
            }
        });
    }

    /** A call of a method with given arguments. */
    @FunctionalInterface
    public interface Call {

        /**
         * Calls the method.
         *
         * @param args the arguments
         * @throws Throwable whatever the method threw
         */
        void call(Object[] args) throws Throwable;
    }

    /** The observer a layer hands the method: its one answer completes the stage. */
    private static final class Answer implements StreamObserver<Object> {

        private final CompletableFuture<Object> result = new CompletableFuture<>();

        // a handler may answer from a thread of its own
        private volatile @Nullable Object value;

        private volatile boolean answered;

        @Override
        public void onNext(@Nullable Object next) {
            if (answered) {
                result.completeExceptionally(new IllegalStateException(
                        "A unary gRPC method answered with more than one message"));
                return;
            }
            answered = true;
            value = next;
        }

        @Override
        public void onError(Throwable failure) {
            result.completeExceptionally(failure);
        }

        @Override
        public void onCompleted() {
            if (!answered) {
                result.completeExceptionally(new IllegalStateException(
                        "A unary gRPC method completed without an answer"));
                return;
            }
            result.complete(value);
        }
    }
}
