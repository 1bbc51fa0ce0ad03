package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.Stages;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Methods whose result is a {@code CompletionStage}: the annotations apply to its completion, not
 * to the call that builds it (docs/async.md).
 */
final class AsyncResults {

    private AsyncResults() {
    }

    /**
     * Proceeds with the invocation and takes its result as a stage; a synchronous failure or a
     * {@code null} result becomes a failed stage.
     *
     * @param invocation the invocation
     * @return the method's stage
     */
    @SuppressWarnings("unchecked")
    static CompletionStage<Object> proceed(MethodInvocation invocation) {
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
     * failure.
     *
     * @param result the result
     * @param fallback the fallback, or {@code null}
     * @param target the bean
     * @param args the call's arguments
     * @return the result with the fallback applied
     */
    @SuppressWarnings("unchecked")
    static CompletableFuture<Object> withFallback(CompletableFuture<Object> result, @Nullable FallbackMethod fallback,
            @Nullable Object target, Object[] args) {
        if (fallback == null) {
            return result;
        }
        return Stages.cancelling(result.exceptionallyCompose(failure -> {
            try {
                Object alternative = fallback.invoke(target, args, Causes.unwrapAsync(failure));
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
