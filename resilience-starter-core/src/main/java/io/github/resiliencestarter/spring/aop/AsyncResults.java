package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.Stages;
import io.github.resiliencestarter.spring.grpc.UnaryObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Methods whose result is a {@code CompletionStage} (or a unary gRPC answer, taken as one): the
 * annotations apply to its completion, not to the call that builds it (docs/async.md).
 */
final class AsyncResults {

    private AsyncResults() {
    }

    /**
     * Proceeds with the invocation and takes its result as a stage; a synchronous failure or a
     * {@code null} result becomes a failed stage. A unary gRPC method's answer is taken as its
     * stage ({@link UnaryObserver}).
     *
     * @param invocation the invocation
     * @return the method's stage
     */
    @SuppressWarnings("unchecked")
    static CompletionStage<Object> proceed(MethodInvocation invocation) {
        if (invocation.getMethod().getReturnType() == void.class) {
            int observer = ResultKind.observerIndex(invocation.getMethod());
            if (observer >= 0) {
                return UnaryObserver.proceed(invocation, observer);
            }
        }
        try {
            Object result = invocation.proceed();
            if (result == null) {
                return CompletableFuture.failedFuture(new IllegalStateException(
                        invocation.getMethod().getName() + " returned null instead of a CompletionStage"));
            }
            return (CompletionStage<Object>) result;
        } catch (Throwable ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Applies a fallback to a failed completion, as the synchronous path applies it to a thrown
     * failure. A unary gRPC method's fallback answers an observer of its own, which becomes the
     * result.
     *
     * @param result the result
     * @param fallback the fallback, or {@code null}
     * @param invocation the call, for the bean and the arguments
     * @return the result with the fallback applied
     */
    @SuppressWarnings("unchecked")
    static CompletableFuture<Object> withFallback(CompletableFuture<Object> result, @Nullable FallbackMethod fallback,
            MethodInvocation invocation) {
        if (fallback == null) {
            return result;
        }
        Object target = invocation.getThis();
        Object[] args = invocation.getArguments();
        // the execution the call is made in, captured here: the fallback runs where the failure completed
        IdempotentExecution execution = TraceContextHolder.current().idempotentExecution();
        int observer = invocation.getMethod().getReturnType() == void.class
                ? ResultKind.observerIndex(invocation.getMethod()) : -1;
        return Stages.cancelling(result.exceptionallyCompose(failure -> {
            Throwable cause = Causes.unwrapAsync(failure);
            if (observer >= 0) {
                return UnaryObserver.answerOf(args, observer, own -> fallback.invoke(target, own, cause, execution));
            }
            try {
                Object alternative = fallback.invoke(target, args, cause, execution);
                if (alternative instanceof CompletionStage<?> stage) {
                    return (CompletionStage<Object>) stage;
                }
                return alternative != null && alternative.getClass().getName().startsWith("reactor.core.publisher.")
                        ? ReactorResults.toStage(alternative) : CompletableFuture.completedFuture(alternative);
            } catch (Throwable ex) {
                return CompletableFuture.failedFuture(ex);
            }
        }), result);
    }
}
