package io.github.resiliencestarter.testsupport.contract;

/**
 * A fault of the kind a retry outlives (a dependency briefly down): the entry point answers it as
 * such (HTTP 503, gRPC {@code UNAVAILABLE}, a requeued message), and the key must be released.
 */
public class TransientWorkFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the failure.
     *
     * @param key the key whose execution failed
     */
    public TransientWorkFailure(String key) {
        super("the first execution of " + key + " met a transient fault", null, false, false);
    }
}
