package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.micrometer.TraceContextAccessor;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Reactor {@code Mono} results on top of the engine's asynchronous paths. Loaded only for methods
 * that return a {@code Mono}, so Reactor stays optional. Each subscription is one governed call:
 * it runs in the trace context of the call that assembled the {@code Mono} (a subscription may
 * happen on another thread, an event loop for instance), and cancelling the subscription cancels
 * the work.
 */
final class ReactorResults {

    /** Captures Micrometer's current observation only (ObservationThreadLocalAccessor's key). */
    private static final ContextSnapshotFactory OBSERVATION = ContextSnapshotFactory.builder()
            .captureKeyPredicate("micrometer.observation"::equals).build();

    private ReactorResults() {
    }

    /**
     * A {@code Mono} whose every subscription runs {@code governed} in the caller's trace context.
     *
     * @param governed one governed execution, started per subscription
     * @return the mono
     */
    static Mono<Object> perSubscription(CheckedCallable<CompletableFuture<Object>> governed) {
        TraceContext caller = TraceContextHolder.current();
        return Mono.defer(() -> {
            try (TraceScope scope = TraceContextHolder.open(caller)) {
                return Mono.fromFuture(governed.call());
            } catch (Throwable ex) {
                return Mono.error(ex);
            }
        });
    }

    /**
     * As {@link #perSubscription}, for governed work that makes blocking calls (the idempotency
     * store's claim and completion): subscribed on Reactor's bounded elastic scheduler, never on the
     * subscriber's thread, which may be an event loop.
     *
     * @param governed one governed execution, started per subscription
     * @return the mono
     */
    static Mono<Object> perSubscriptionOffEventLoop(CheckedCallable<CompletableFuture<Object>> governed) {
        return perSubscription(governed).subscribeOn(Schedulers.boundedElastic());
    }

    /**
     * Invokes the method once more (the rest of the interceptor chain and the method) and subscribes
     * to the {@code Mono} it returns.
     *
     * @param invocation the intercepted invocation
     * @return the mono's value as a stage ({@code null} for an empty mono)
     */
    static CompletionStage<Object> subscribe(MethodInvocation invocation) {
        try {
            MethodInvocation fresh = invocation instanceof ProxyMethodInvocation proxied
                    ? proxied.invocableClone() : invocation;
            return toStage(fresh.proceed());
        } catch (Throwable ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * A {@code Mono} as a stage; cancelling the stage disposes the subscription.
     *
     * @param mono a {@code Mono}, as a method or a fallback returned it
     * @return the stage
     */
    @SuppressWarnings("unchecked")
    static CompletionStage<Object> toStage(@Nullable Object mono) {
        if (mono == null) {
            throw new IllegalStateException("a method declared to return a Mono returned null");
        }
        TraceContext current = TraceContextHolder.current();
        Mono<Object> subscribed = (Mono<Object>) mono;
        if (current != TraceContext.empty()) {
            // with automatic context propagation, Reactor restores thread locals from the subscriber's
            // context: give the method's Mono the governed context (deadline, attempt), not none
            subscribed = subscribed.contextWrite(reactor -> reactor.put(TraceContextAccessor.KEY, current));
        }
        // subscribed here, outside the subscriber's chain: carry the current observation (and with it
        // the tracer's span) so the method's operators see it. Only that key: this thread's other
        // context-propagation values (the request, the security context) may be another request's
        ContextSnapshot observation = OBSERVATION.captureAll();
        return subscribed.contextWrite(observation::updateContext).toFuture();
    }
}
