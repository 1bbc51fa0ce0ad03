package io.github.resiliencestarter.retry;

import io.github.resiliencestarter.core.Causes;
import org.jspecify.annotations.Nullable;

/**
 * A policy inside the retry loop that may refuse the next attempt before the loop waits for it.
 * Attached as a suppressed throwable to a failure on its way out (a circuit breaker attaches one
 * to every failure it saw), it is asked when a retry would otherwise follow: a refusal ends the
 * call at once, so no back-off is slept against a downstream that will not be called anyway.
 *
 * <p>The gate answers from its live state, not from the state when it was attached. Stackless,
 * and one instance per policy may be attached to many failures.
 */
public abstract class RetryGate extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the gate.
     *
     * @param description what the gate guards, as a stack trace shows it
     */
    protected RetryGate(String description) {
        super(description, null, false, false);
    }

    /**
     * Why the next attempt would be refused now, or {@code null} when it may run.
     *
     * @return the refusal, for the call's summary and log line
     */
    public abstract @Nullable String refusal();

    /**
     * The refusal of the first gate attached to {@code failure} or one of its causes that refuses
     * now, or {@code null}. Asked only on the failure path.
     *
     * @param failure a failed attempt's error
     * @return the refusal, or {@code null}
     */
    public static @Nullable String refusalOn(Throwable failure) {
        return Causes.firstAnswer(failure, current -> {
            for (Throwable suppressed : current.getSuppressed()) {
                if (suppressed instanceof RetryGate gate) {
                    String refusal = gate.refusal();
                    if (refusal != null) {
                        return refusal;
                    }
                }
            }
            return null;
        });
    }
}
