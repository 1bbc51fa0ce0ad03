package io.github.resiliencestarter.autoconfigure.propagation;

import io.github.resiliencestarter.core.ContextPropagator;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Every {@link ContextPropagator} bean of the application, in their order, as one: what the
 * timeout workers, the task executors and an asynchronous idempotent wait carry to their threads.
 */
public final class ApplicationPropagators {

    private ApplicationPropagators() {
    }

    /**
     * The application's propagators as one.
     *
     * @param propagators the propagator beans
     * @return one propagator capturing all of them, in order
     */
    public static ContextPropagator of(ObjectProvider<ContextPropagator> propagators) {
        return ContextPropagator.composite(propagators.orderedStream().toList());
    }
}
