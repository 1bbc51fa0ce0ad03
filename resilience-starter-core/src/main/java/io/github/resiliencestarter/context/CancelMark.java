package io.github.resiliencestarter.context;

import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * Why work was stopped from this side before it could end on its own. Whoever cancels work it
 * started (a hedged round its losing attempts, a caller that stopped waiting) marks it first; whoever
 * judges how the work ended (a circuit breaker) reads the mark instead of guessing from the
 * exception: a client may report the same interrupt as an {@code InterruptedException}, an
 * {@code IOException} or a closed channel. It travels in the work's {@link TraceContext}, so
 * everything the work calls, on any thread the context reaches, sees it. The first mark stays.
 * Thread-safe.
 */
public final class CancelMark {

    private volatile @Nullable Reason reason;

    /**
     * Marks the work as stopped, unless it was already.
     *
     * @param why why it is stopped
     */
    public void mark(Reason why) {
        if (reason == null) {
            reason = why;
        }
    }

    /**
     * Marks the work, then cancels it with an interrupt: the mark is visible to the work before the
     * interrupt reaches it.
     *
     * @param work the work's future
     * @param why why it is stopped
     */
    public void cancel(Future<?> work, Reason why) {
        mark(why);
        work.cancel(true);
    }

    /**
     * Why the work was stopped, or {@code null} while nobody stopped it.
     *
     * @return the reason
     */
    public @Nullable Reason reason() {
        return reason;
    }

    /**
     * Whether someone on this side stopped the work.
     *
     * @return {@code true} once marked
     */
    public boolean isMarked() {
        return reason != null;
    }

    @Override
    public String toString() {
        return "CancelMark[" + reason + "]";
    }

    /** Why work was stopped from this side. */
    public enum Reason {

        /** Another attempt of its hedged round won. */
        LOST_TO_HEDGE,

        /** Its caller stopped waiting for it: interrupted, or cancelled the caller's own future. */
        CALLER_GONE
    }
}
