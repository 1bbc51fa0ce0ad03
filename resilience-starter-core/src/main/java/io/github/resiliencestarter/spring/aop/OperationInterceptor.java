package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.CheckedCallable;
import io.github.resiliencestarter.spring.grpc.UnaryObserver;
import java.util.concurrent.CompletionStage;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The shape every annotation interceptor shares: look up the method's cached operation, run the
 * call through it, and hand a failure to the operation's fallback when it has one.
 *
 * @param <O> the resolved operation type
 */
public abstract class OperationInterceptor<O> implements MethodInterceptor {

    @Override
    public final @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        OperationGenerations.Generation pinned = OperationGenerations.pinned(invocation);
        AnnotatedOperationSource<?, O> source = source();
        OperationGenerations.Generation generation = pinned != null ? pinned : source.generations().current();
        // the raw class: the cache resolves a CGLIB subclass to its user class once, not on every call
        O operation = source.get(generation, invocation.getMethod(), target != null ? target.getClass() : null);
        if (operation == null) {
            return invocation.proceed();
        }
        if (pinned == null && sharesSettings(operation)) {
            OperationGenerations.pin(invocation, generation);
        }
        try {
            Object result = invoke(operation, invocation);
            if (result instanceof CompletionStage<?> answer && invocation.getMethod().getReturnType() == void.class) {
                // a unary gRPC method governed as a stage: pass the decided answer on to its observer
                UnaryObserver.answer(answer, invocation.getArguments(),
                        ResultKind.observerIndex(invocation.getMethod()));
                return null;
            }
            return result;
        } catch (Throwable ex) {
            FallbackMethod fallback = fallback(operation);
            if (fallback != null) {
                return fallback.invoke(target, invocation.getArguments(), ex);
            }
            throw ex;
        }
    }

    /**
     * The invocation as engine work: it proceeds down the chain, and its result may be {@code null}.
     *
     * @param invocation the call
     * @return the work
     */
    protected static CheckedCallable<@Nullable Object> proceeding(MethodInvocation invocation) {
        return invocation::proceed;
    }

    /**
     * Where the method's operations are resolved and cached.
     *
     * @return the source
     */
    protected abstract AnnotatedOperationSource<?, O> source();

    /**
     * Whether the operation's method carries another tunable annotation, so that its call pins
     * the generation of settings it read ({@link OperationGenerations}).
     *
     * @param operation the operation
     * @return {@code true} to pin; {@code false} by default
     */
    protected boolean sharesSettings(O operation) {
        return false;
    }

    /**
     * Runs the call through the operation.
     *
     * @param operation the operation
     * @param invocation the call
     * @return the call's result
     * @throws Throwable whatever the call or the operation threw
     */
    protected abstract @Nullable Object invoke(O operation, MethodInvocation invocation) throws Throwable;

    /**
     * The operation's fallback.
     *
     * @param operation the operation
     * @return the fallback, or {@code null}
     */
    protected abstract @Nullable FallbackMethod fallback(O operation);
}
