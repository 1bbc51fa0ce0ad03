package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.timeout.TimeoutMode;
import java.lang.reflect.Method;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Applies {@code @Timeout}: refuses OFFLOAD inside a caller's transaction, runs the call through
 * the guard and hands failures to the fallback.
 */
public class TimeoutInterceptor extends OperationInterceptor<TimeoutOperation> {

    private static final boolean TX_PRESENT = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            TimeoutInterceptor.class.getClassLoader());

    private final TimeoutOperationSource source;

    /**
     * Creates the interceptor.
     *
     * @param source the per-method settings
     */
    public TimeoutInterceptor(TimeoutOperationSource source) {
        this.source = source;
    }

    @Override
    protected AnnotatedOperationSource<?, TimeoutOperation> source() {
        return source;
    }

    @Override
    protected boolean sharesSettings(TimeoutOperation operation) {
        return operation.sharesSettings();
    }

    @Override
    protected @Nullable Object invoke(TimeoutOperation operation, MethodInvocation invocation) throws Throwable {
        // async results: the deadline bounds the completion; nothing is offloaded, a transaction is no obstacle
        if (operation.kind().completesAStage()) {
            return AsyncResults.withFallback(operation.guard().callAsync(() -> AsyncResults.proceed(invocation)),
                    operation.fallback(), invocation);
        }
        if (operation.kind() == ResultKind.MONO) {
            return ReactorResults.perSubscription(() -> AsyncResults.withFallback(
                    operation.guard().callAsync(() -> ReactorResults.subscribe(invocation)), operation.fallback(), invocation));
        }
        if (operation.guard().config().mode() == TimeoutMode.OFFLOAD && TX_PRESENT
                && TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new OffloadInTransactionException(operation.name());
        }
        return operation.guard().call(proceeding(invocation));
    }

    @Override
    protected @Nullable FallbackMethod fallback(TimeoutOperation operation) {
        return operation.fallback();
    }
}
