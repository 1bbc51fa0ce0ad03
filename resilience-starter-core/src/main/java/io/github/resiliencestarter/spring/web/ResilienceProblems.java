package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.circuit.CircuitOpenException;
import io.github.resiliencestarter.circuit.CircuitRefusal;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.IdempotencyException;
import io.github.resiliencestarter.idempotent.IdempotencyInProgressException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyExpressionException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyScopeException;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.IdempotentPayloadTooLargeException;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.ResilienceTimeoutException;
import io.github.resiliencestarter.timeout.TimeoutRejectedException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The one mapping from the starter's errors to RFC 9457 problem details: status, type and title.
 * Used by the exception handler and by the filter, which answers before any controller runs.
 */
public final class ResilienceProblems {

    private static final Logger log = LoggerFactory.getLogger(ResilienceProblems.class);

    /** Base of the problem type URIs. */
    public static final String TYPE_BASE = "urn:resilience-starter:problem:";

    /** Problem property carrying the trace id. */
    public static final String TRACE_ID_PROPERTY = "traceId";

    /** Seconds a client should wait before retrying a call refused for lack of capacity or store. */
    public static final int SATURATED_RETRY_AFTER_SECONDS = 1;

    private ResilienceProblems() {
    }

    /**
     * The problem for a spent or exceeded deadline (504).
     *
     * @param detail what ran out of time
     * @return the problem
     */
    public static ProblemDetail deadlineExceeded(@Nullable String detail) {
        return problem(HttpStatus.GATEWAY_TIMEOUT, "deadline-exceeded", "Deadline exceeded", detail);
    }

    /**
     * The problem for an error of the starter, or {@code null} when the error is not one of ours.
     *
     * <p>The detail is a fixed sentence per problem type, so that no class or method name of the
     * server reaches the client; with {@code includeOperation} it is the error's own message,
     * which names the operation. The log and the metrics name the operation either way.
     *
     * @param error the error
     * @param includeOperation whether the detail may name the server's operation
     * @return the problem, or {@code null}
     */
    public static @Nullable ProblemDetail forError(Throwable error, boolean includeOperation) {
        String message = includeOperation ? error.getMessage() : null;
        if (error instanceof DeadlineExceededException) {
            return deadlineExceeded(or(message, "The request did not complete within its deadline"));
        }
        if (error instanceof ResilienceTimeoutException timeout) {
            String kind = timeout.kind().name().toLowerCase(Locale.ROOT);
            return problem(HttpStatus.GATEWAY_TIMEOUT, kind + "-timeout", "Downstream " + kind + " timeout",
                    or(message, "A call to another service did not complete in time"));
        }
        if (error instanceof CircuitRefusal) {
            // names the breaker only when operations may be named: a breaker's name is the downstream's
            return problem(HttpStatus.SERVICE_UNAVAILABLE, CircuitOpenException.ERROR_CODE, "Circuit open",
                    or(message, "A service this request depends on is failing; the request was not executed, "
                            + "try again later"));
        }
        if (error instanceof TimeoutRejectedException) {
            return problem(HttpStatus.SERVICE_UNAVAILABLE, "timeout-executor-saturated", "Too busy",
                    or(message, "Too many calls are running; the request was not executed, try again later"));
        }
        if (error instanceof IdempotencyKeyException) {
            // about the client's own key: written for the client, names nothing of the server
            return problem(HttpStatus.BAD_REQUEST, "idempotency-key-invalid", "Invalid idempotency key",
                    error.getMessage());
        }
        if (error instanceof IdempotencyKeyExpressionException) {
            // the server's key expression is wrong: the details are in the log, with the trace id
            return problem(HttpStatus.INTERNAL_SERVER_ERROR, "idempotency-key-unavailable",
                    "Idempotency key unavailable", or(message,
                            "The server could not derive the idempotency key; the request was not executed"));
        }
        if (error instanceof IdempotencyInProgressException) {
            return problem(HttpStatus.CONFLICT, "idempotency-in-progress", "Request already in progress",
                    or(message, "A request with this idempotency key is still being processed"));
        }
        if (error instanceof IdempotencyKeyReusedException) {
            return problem(HttpStatus.UNPROCESSABLE_ENTITY, "idempotency-key-reused",
                    "Idempotency key reused with another payload", or(message,
                            "This idempotency key was already used for a request with another payload"));
        }
        if (error instanceof IdempotentPayloadTooLargeException) {
            return problem(HttpStatus.valueOf(413), "idempotent-payload-too-large", "Request body too large",
                    error.getMessage());
        }
        if (error instanceof IdempotencyStoreException) {
            // the store's own message may name hosts; keep it in the log, not in the answer
            return problem(HttpStatus.SERVICE_UNAVAILABLE, "idempotency-store-unavailable",
                    "Idempotency store unavailable", "The request was not executed; try again later");
        }
        if (error instanceof IdempotencyRecordCorruptedException) {
            return problem(HttpStatus.CONFLICT, "idempotency-record-corrupted", "Stored idempotency record unreadable",
                    "The stored record of this key cannot be read; the request was not executed");
        }
        if (error instanceof IdempotencyScopeException) {
            // a server-side fault: the details (which thread, which method) belong in the log
            return problem(HttpStatus.INTERNAL_SERVER_ERROR, "idempotency-scope-unavailable",
                    "Caller identity unavailable", "The caller's identity could not be determined; the request "
                            + "was not executed");
        }
        if (error instanceof IdempotencyException) {
            return problem(HttpStatus.CONFLICT, "idempotent-response-unavailable",
                    "First response cannot be replayed", or(message, "The first request with this idempotency key "
                            + "has no response that can be replayed; it is not executed again"));
        }
        return null;
    }

    private static String or(@Nullable String message, String generic) {
        return message != null ? message : generic;
    }

    /**
     * The {@code Retry-After} seconds that go with the problem for {@code error}, or {@code null}.
     *
     * @param error the error
     * @return seconds, or {@code null} when the client should not simply retry
     */
    public static @Nullable Long retryAfterSeconds(Throwable error) {
        if (error instanceof IdempotencyInProgressException inProgress) {
            return inProgress.retryAfterSeconds();
        }
        if (error instanceof CircuitRefusal open) {
            // whole seconds, rounded up: a client told 0 would come back before the probe is let through
            long millis = open.retryAfter().toMillis();
            return Math.max(1, (millis + 999) / 1000);
        }
        if (error instanceof TimeoutRejectedException || error instanceof IdempotencyStoreException) {
            return (long) SATURATED_RETRY_AFTER_SECONDS;
        }
        return null;
    }

    private static ProblemDetail problem(HttpStatus status, String type, String title, @Nullable String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_BASE + type));
        problem.setTitle(title);
        String traceId = TraceContextHolder.current().traceId();
        if (traceId != null) {
            problem.setProperty(TRACE_ID_PROPERTY, traceId);
        }
        return problem;
    }

    /**
     * The whole problem response for one of the starter's errors, for any web stack.
     *
     * @param error the error
     * @param instance the request path, or {@code null}
     * @param includeOperation whether the detail may name the server's operation
     * @return status, {@code Retry-After} when there is one, and the problem body; {@code null}
     *     when the error has no problem mapping
     */
    public static @Nullable ResponseEntity<ProblemDetail> response(Throwable error, @Nullable String instance,
            boolean includeOperation) {
        return response(error, instance, includeOperation, TYPE_BASE);
    }

    /**
     * The whole problem response for one of the starter's errors, its type under the given base.
     *
     * @param error the error
     * @param instance the request path, or {@code null}
     * @param includeOperation whether the detail may name the server's operation
     * @param typeBase the base the problem types are rebased on ({@link #rebase})
     * @return status, {@code Retry-After} when there is one, and the problem body; {@code null}
     *     when the error has no problem mapping
     */
    public static @Nullable ResponseEntity<ProblemDetail> response(Throwable error, @Nullable String instance,
            boolean includeOperation, String typeBase) {
        ProblemDetail problem = forError(error, includeOperation);
        if (problem == null) {
            return null;
        }
        if (error instanceof ResilienceTimeoutException) {
            // the client's detail names no method: this line does, once per answered call, with the trace id
            log.warn("{} answered {} (trace {}): {}", instance == null ? "A call" : instance, problem.getStatus(),
                    problem.getProperties() == null ? null : problem.getProperties().get(TRACE_ID_PROPERTY),
                    error.getMessage());
        }
        if (instance != null) {
            problem.setInstance(URI.create(instance));
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.status(problem.getStatus());
        Long retryAfter = retryAfterSeconds(error);
        if (retryAfter != null) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfter.toString());
        }
        return response.body(rebase(problem, typeBase));
    }

    /**
     * Moves a problem's type from the starter's own {@value #TYPE_BASE} names to a base of the
     * application's, so that the type is a link to its documentation
     * ({@code https://docs.example.com/problems/idempotency-key-invalid}), as RFC 9457 suggests.
     *
     * @param problem a problem of the starter
     * @param typeBase the base the type's last part goes after; {@link #TYPE_BASE} changes nothing
     * @return the problem
     */
    public static ProblemDetail rebase(ProblemDetail problem, String typeBase) {
        String type = String.valueOf(problem.getType());
        if (!typeBase.equals(TYPE_BASE) && type.startsWith(TYPE_BASE)) {
            problem.setType(URI.create(typeBase + type.substring(TYPE_BASE.length())));
        }
        return problem;
    }

    /**
     * A problem as the JSON object filters write before any message converter exists.
     *
     * @param problem the problem
     * @param instance the request path
     * @return its members, in the RFC's order, then its extra properties
     */
    public static Map<String, Object> members(ProblemDetail problem, String instance) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", String.valueOf(problem.getType()));
        body.put("title", problem.getTitle());
        body.put("status", problem.getStatus());
        body.put("detail", problem.getDetail());
        body.put("instance", instance);
        if (problem.getProperties() != null) {
            body.putAll(problem.getProperties());
        }
        return body;
    }
}
