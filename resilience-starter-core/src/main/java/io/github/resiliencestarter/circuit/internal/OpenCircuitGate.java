package io.github.resiliencestarter.circuit.internal;

import io.github.resiliencestarter.retry.RetryGate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A breaker's answer to the retry loop around it: refuse while the circuit is open. */
public final class OpenCircuitGate extends RetryGate {

    private static final long serialVersionUID = 1L;

    private final transient Supplier<@Nullable String> refusal;

    /**
     * Creates the gate of one breaker.
     *
     * @param circuit the breaker's name
     * @param refusal the breaker's refusal now, or {@code null} while it lets calls through
     */
    public OpenCircuitGate(String circuit, Supplier<@Nullable String> refusal) {
        super("this failure passed through circuit breaker '" + circuit + "'");
        this.refusal = refusal;
    }

    @Override
    public @Nullable String refusal() {
        return refusal.get();
    }

    /**
     * Attaches this gate to {@code failure} once, however often the same throwable passes through.
     *
     * @param failure the failure
     */
    public void attachTo(Throwable failure) {
        for (Throwable suppressed : failure.getSuppressed()) {
            if (suppressed == this) {
                return;
            }
        }
        failure.addSuppressed(this);
    }
}
