package io.github.resiliencestarter.circuit.internal;

import io.github.resiliencestarter.circuit.CircuitBreakerConfig;
import io.github.resiliencestarter.circuit.CircuitRefusal;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.retry.RetryClassifier;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;

/**
 * The one decision of what a finished call contributes to its breaker. Pure.
 *
 * <ol>
 * <li>No failure: a success (the breaker itself tells a slow one by its duration).</li>
 * <li>Refused by a breaker inside this one (anywhere in the cause chain): ignored.</li>
 * <li>The deadline had passed when the call ended, however the call was stopped (a timeout's
 *     cancel or interrupt included): the method's own ({@code @Timeout}) one, a failure; a
 *     caller's budget, a failure only when the call had already run for the slow-call duration,
 *     its fair chance; cut sooner, it says nothing about the downstream and is ignored.</li>
 * <li>Stopped from this side with time left, as its {@link io.github.resiliencestarter.context.CancelMark}
 *     says (a hedge's losing attempt, a caller that stopped waiting): ignored, however the client
 *     reported the stop (an interrupt, an I/O failure caused by it, a closed channel).</li>
 * <li>Thrown as a bare cancellation or interrupt that nobody here marked (the application's own
 *     cancel, a pool shutting down): no answer came, so ignored. Anything wrapping one is judged by
 *     what wraps it.</li>
 * <li>A failure the starter never retries (a spent deadline, an idempotency conflict, another open
 *     circuit, {@code NonRetryableException}) or an excluded type: ignored.</li>
 * <li>A failure the classification calls transient (I/O, 5xx, a timeout): a failure.</li>
 * <li>Anything else (a 4xx, a business error): the downstream answered, a success.</li>
 * </ol>
 */
public final class AttemptJudge {

    private AttemptJudge() {
    }

    /**
     * Judges one finished call.
     *
     * @param config the breaker's settings
     * @param failure the call's failure, or {@code null}
     * @param elapsedNanos how long it ran
     * @param deadline the caller's deadline, or {@code null}
     * @param stoppedHere whether someone on this side marked the call as stopped before it ended
     * @return what it contributes
     */
    public static Verdict judge(CircuitBreakerConfig config, @Nullable Throwable failure, long elapsedNanos,
            @Nullable Deadline deadline, boolean stoppedHere) {
        if (failure == null) {
            return Verdict.SUCCESS;
        }
        if (Causes.firstAnswer(failure, cause -> cause instanceof CircuitRefusal ? cause : null) != null) {
            // a breaker inside (another, or one instance's) refused: nothing was asked of this downstream
            return Verdict.IGNORED;
        }
        if (deadline != null && deadline.isExpired()) {
            // the method's own @Timeout was missed: the downstream's fault, even when the timeout
            // cancelled the call. A caller's budget that ran out: only when the call had had its fair chance
            return deadline.isLocal() || elapsedNanos >= config.slowCallDuration().toNanos() ? Verdict.FAILURE
                    : Verdict.IGNORED;
        }
        if (stoppedHere || failure instanceof CancellationException || failure instanceof InterruptedException) {
            // stopped with time left, by a hedge's win, a caller gone, or the application itself
            return Verdict.IGNORED;
        }
        RetryClassifier classifier = config.classifier();
        if (classifier.isRetryable(failure)) {
            return Verdict.FAILURE;
        }
        if (RetryClassifier.isNeverRetryable(failure) || classifier.isExcluded(failure)) {
            return Verdict.IGNORED;
        }
        return Verdict.SUCCESS;
    }

    /** What a call contributes. */
    public enum Verdict {

        /** Counts as a success (slow or not, by its duration). */
        SUCCESS,

        /** Counts as a failure. */
        FAILURE,

        /** Does not count. */
        IGNORED
    }
}
