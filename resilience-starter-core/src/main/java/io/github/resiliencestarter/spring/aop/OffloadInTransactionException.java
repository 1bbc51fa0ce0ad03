package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.ResilienceException;

/**
 * An OFFLOAD {@code @Timeout} was called inside an active transaction of the calling thread. The
 * work would run on another thread, outside that transaction, so the call is refused before it
 * starts. Use {@code mode = INTERRUPT}, or put {@code @Timeout} outside the transaction.
 */
public class OffloadInTransactionException extends ResilienceException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param operation the refused operation
     */
    public OffloadInTransactionException(String operation) {
        super("@Timeout(mode = OFFLOAD) on " + operation + " was called inside an active transaction; the work "
                + "would run on another thread outside it. Use mode = INTERRUPT, or move @Timeout outside the "
                + "transaction (annotate the caller, or let @Timeout's advisor order wrap @Transactional).");
    }
}
