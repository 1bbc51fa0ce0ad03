package io.github.resiliencestarter.idempotent;

/**
 * The request is authenticated, but the caller's identity could not be read where the key is
 * scoped (for example on a worker thread that did not receive the security context). Nothing was
 * executed: sharing one key space between users could replay one user's response to another
 * (HTTP 500, a server fault, not the client's).
 */
public class IdempotencyScopeException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the scope is unknown
     */
    public IdempotencyScopeException(String message) {
        super("IDEMPOTENCY_SCOPE_UNAVAILABLE", message, null);
    }
}
