package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.circuit.CircuitRefusal;
import io.github.resiliencestarter.idempotent.IdempotencyInProgressException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotencyScopeException;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.timeout.ResilienceTimeoutException;
import io.github.resiliencestarter.timeout.TimeoutRejectedException;
import io.grpc.Status;
import org.jspecify.annotations.Nullable;

/**
 * The gRPC status of each of the starter's failures, as their HTTP problems are on a web server: a
 * spent deadline is {@code DEADLINE_EXCEEDED}, a reused key {@code ALREADY_EXISTS}, a key still in
 * progress {@code ABORTED} (try again later), an invalid key {@code INVALID_ARGUMENT}, a store
 * down, an open circuit {@code UNAVAILABLE}, a saturated executor {@code RESOURCE_EXHAUSTED}. The
 * description names no class or method of the server.
 */
public final class GrpcStatuses {

    private GrpcStatuses() {
    }

    /**
     * The status of a failure.
     *
     * @param error what the call threw
     * @return its status, or {@code null} when it is none of the starter's
     */
    public static @Nullable Status forError(Throwable error) {
        if (error instanceof ResilienceTimeoutException) {
            return Status.DEADLINE_EXCEEDED.withDescription("The call did not complete within its deadline");
        }
        if (error instanceof IdempotencyKeyReusedException) {
            return Status.ALREADY_EXISTS.withDescription("The idempotency key was used for another request");
        }
        if (error instanceof IdempotencyInProgressException) {
            return Status.ABORTED.withDescription("A request with this idempotency key is still in progress; "
                    + "try again later");
        }
        if (error instanceof IdempotencyKeyException) {
            return Status.INVALID_ARGUMENT.withDescription(error.getMessage());
        }
        if (error instanceof IdempotencyScopeException) {
            // the call reached a keyed method without a caller the application can name
            return Status.UNAUTHENTICATED.withDescription("The caller's identity could not be determined; the "
                    + "request was not executed");
        }
        if (error instanceof IdempotencyStoreException || error instanceof CircuitRefusal) {
            return Status.UNAVAILABLE.withDescription("A dependency of this service is unavailable; the request was "
                    + "not executed, try again later");
        }
        if (error instanceof TimeoutRejectedException) {
            return Status.RESOURCE_EXHAUSTED.withDescription("Too many calls are running; the request was not "
                    + "executed, try again later");
        }
        return null;
    }
}
