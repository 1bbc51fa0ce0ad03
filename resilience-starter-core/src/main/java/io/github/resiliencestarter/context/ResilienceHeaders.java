package io.github.resiliencestarter.context;

/**
 * Names of the HTTP headers the starter reads and writes. One place, so inbound filters, outbound
 * interceptors and documentation cannot drift apart.
 */
public final class ResilienceHeaders {

    /** The trace id, read inbound and echoed on the response and sent outbound. */
    public static final String TRACE_ID = "X-Trace-Id";

    /** The W3C trace context header; its trace-id is the second choice for a trace id. */
    public static final String TRACEPARENT = "traceparent";

    /** Remaining budget in relative milliseconds; relative, so clock skew between hosts does not matter. */
    public static final String TIMEOUT_BUDGET_MS = "X-Timeout-Budget-Ms";

    /**
     * A queued message's deadline, as the sender's wall-clock time in epoch milliseconds: a relative
     * budget would not count the time the message waits in the queue, so this hop is absolute.
     */
    public static final String DEADLINE_EPOCH_MS = "X-Deadline-Epoch-Ms";

    /** gRPC's deadline header: 1 to 8 digits and a unit (H, M, S, m, u, n). */
    public static final String GRPC_TIMEOUT = "grpc-timeout";

    /** Envoy's expected request timeout, in milliseconds. */
    public static final String ENVOY_EXPECTED_TIMEOUT_MS = "x-envoy-expected-rq-timeout-ms";

    /** The retry attempt number sent downstream (1 for the first attempt). */
    public static final String RETRY_ATTEMPT = "X-Retry-Attempt";

    /**
     * Set on an error response whose failure already went through retries (exhausted, or denied by
     * the retry budget): callers must not retry it again, so only one layer of a call chain
     * retries (rule R-P2).
     */
    public static final String RETRY_EXHAUSTED = "X-Retry-Exhausted";

    /** Set on an answer that replays a stored result of the same idempotency key. */
    public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    private ResilienceHeaders() {
    }
}
