package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.core.CheckedCallable;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Applies {@code @Retry}: runs each attempt on a fresh clone of the invocation, so the inner
 * interceptors (a transaction, for instance) run again for every attempt, and hands the final
 * failure to the fallback. A hedged method called inside the caller's transaction runs unhedged on
 * the calling thread.
 */
public class RetryInterceptor extends OperationInterceptor<RetryOperation> {

    private static final boolean TX_PRESENT = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            RetryInterceptor.class.getClassLoader());

    private final RetryOperationSource source;

    /**
     * Creates the interceptor.
     *
     * @param source the per-method settings
     */
    public RetryInterceptor(RetryOperationSource source) {
        this.source = source;
    }

    @Override
    protected AnnotatedOperationSource<?, RetryOperation> source() {
        return source;
    }

    @Override
    protected boolean sharesSettings(RetryOperation operation) {
        return operation.sharesSettings();
    }

    @Override
    protected @Nullable Object invoke(RetryOperation operation, MethodInvocation invocation) throws Throwable {
        if (operation.kind() == ResultKind.MONO) {
            // each attempt invokes the method again and subscribes to its new Mono
            return ReactorResults.perSubscription(() -> AsyncResults.withFallback(
                    operation.retrier().callAsync(() -> ReactorResults.subscribe(invocation)), operation.fallback(), invocation));
        }
        if (operation.kind().completesAStage()) {
            // each attempt re-invokes the method on a fresh clone: a new stage per attempt
            CheckedCallable<CompletionStage<Object>> attempt = invocation instanceof ProxyMethodInvocation proxied
                    ? () -> AsyncResults.proceed(proxied.invocableClone()) : () -> AsyncResults.proceed(invocation);
            return AsyncResults.withFallback(operation.retrier().callAsync(attempt), operation.fallback(), invocation);
        }
        CheckedCallable<@Nullable Object> attempt = blockingAttempts(invocation);
        if (operation.retrier().config().hedge() != null && TX_PRESENT
                && TransactionSynchronizationManager.isActualTransactionActive()) {
            // hedged attempts run on other threads, outside the caller's transaction and blind to its
            // uncommitted writes: inside one, the read stays on this thread, unhedged
            return operation.retrier().callInPlace(attempt);
        }
        return operation.retrier().call(attempt);
    }

    /**
     * The attempts of a blocking call. The first proceeds on the original invocation (nothing to
     * copy on the common path); later ones run a fresh invocation of the inner interceptors and the
     * target with the arguments the call arrived with.
     */
    private CheckedCallable<@Nullable Object> blockingAttempts(MethodInvocation invocation) {
        if (!(invocation instanceof ProxyMethodInvocation proxied)) {
            return proceeding(invocation);
        }
        if (!RetryAttemptInvocation.canRebuild(proxied)) {
            return () -> proxied.invocableClone().proceed();
        }
        Object[] arguments = proxied.getArguments();
        return () -> TraceContextHolder.current().attempt() <= 1
                ? proxied.proceed() : RetryAttemptInvocation.after(this, proxied, arguments).proceed();
    }

    @Override
    protected @Nullable FallbackMethod fallback(RetryOperation operation) {
        return operation.fallback();
    }
}
