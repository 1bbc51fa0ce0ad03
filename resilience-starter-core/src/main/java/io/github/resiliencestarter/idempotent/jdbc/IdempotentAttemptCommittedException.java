package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.idempotent.IdempotencyException;

/**
 * An earlier attempt of the same idempotent execution already committed its business writes
 * together with the key; a later attempt's transaction is rolled back instead of committing them a
 * second time (HTTP 409). The retry engine does not retry an execution once an attempt committed;
 * this guards any other retry around the method.
 */
public class IdempotentAttemptCommittedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param committedAttempt the attempt whose writes committed
     * @param attempt the attempt refused
     */
    public IdempotentAttemptCommittedException(int committedAttempt, int attempt) {
        super("IDEMPOTENT_ATTEMPT_COMMITTED", "Attempt " + attempt + " of an idempotent execution tried to commit "
                + "after attempt " + committedAttempt + " had committed its writes; it was rolled back", null);
    }
}
