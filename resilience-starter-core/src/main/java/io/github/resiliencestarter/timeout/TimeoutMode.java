package io.github.resiliencestarter.timeout;

/** How a timeout is enforced. */
public enum TimeoutMode {

    /**
     * Use the configured mode. Only meaningful on the annotation, where it means "not set here";
     * a {@link TimeoutConfig} never holds it.
     */
    DEFAULT,

    /**
     * Run the work on a bounded, context-carrying executor; the caller waits until the deadline,
     * then cancels the work with an interrupt and throws. The default: the caller is released on
     * time even when the work ignores interrupts.
     */
    OFFLOAD,

    /**
     * Run the work on the caller's thread and interrupt that thread at the deadline. Cheaper and
     * keeps thread-bound state (transactions), but a call that ignores interrupts holds the caller
     * until it returns; it still ends in a timeout error.
     */
    INTERRUPT,

    /**
     * Cut nothing: the work runs as without a timeout, on the caller's thread and in the caller's
     * context, and a call that passes the deadline it would have had is counted
     * ({@link TimeoutOutcome#WOULD_TIMEOUT}). For trying a timeout on live traffic before enforcing
     * it (docs/rollout.md). Set in the properties, it wins over a mode on the annotation, which then
     * says how to enforce once the instance enforces.
     */
    OBSERVE
}
