package io.github.resiliencestarter.circuit;

import java.util.List;

/**
 * Hears what circuit breakers do, for metrics and logs. Called on the thread of the call that
 * caused it; implementations must be fast and must not throw.
 */
public interface CircuitObserver {

    /** Hears nothing. */
    CircuitObserver NOOP = new CircuitObserver() {
    };

    /**
     * A call went through or was refused.
     *
     * @param circuit the breaker's name
     * @param outcome what the call contributed
     */
    default void onCall(String circuit, CircuitOutcome outcome) {
    }

    /**
     * The breaker changed state. A breaker tells its changes one at a time, in the order they
     * happened, so the last one heard is its state.
     *
     * @param circuit the breaker's name
     * @param from the state it left
     * @param to the state it entered
     */
    default void onStateChange(String circuit, CircuitState from, CircuitState to) {
    }

    /**
     * A breaker was removed (the breaker of an instance no longer called): forget what is kept for it.
     *
     * @param circuit the breaker's name
     */
    default void onRemoved(String circuit) {
    }

    /**
     * One observer that tells all of {@code observers}, in order.
     *
     * @param observers the observers
     * @return the combined observer
     */
    static CircuitObserver composite(List<? extends CircuitObserver> observers) {
        if (observers.isEmpty()) {
            return NOOP;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        CircuitObserver[] all = observers.toArray(new CircuitObserver[0]);
        return new CircuitObserver() {
            @Override
            public void onCall(String circuit, CircuitOutcome outcome) {
                for (CircuitObserver observer : all) {
                    observer.onCall(circuit, outcome);
                }
            }

            @Override
            public void onStateChange(String circuit, CircuitState from, CircuitState to) {
                for (CircuitObserver observer : all) {
                    observer.onStateChange(circuit, from, to);
                }
            }

            @Override
            public void onRemoved(String circuit) {
                for (CircuitObserver observer : all) {
                    observer.onRemoved(circuit);
                }
            }
        };
    }
}
