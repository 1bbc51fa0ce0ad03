package io.github.resiliencestarter.autoconfigure.loadbalancer;

import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.ResponseData;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;

/** How a load-balanced request ended, read once for the lifecycles that act on it. */
final class LoadBalancedOutcomes {

    private LoadBalancedOutcomes() {
    }

    /** The HTTP status the instance answered, or -1 (no answer, or not an HTTP client). */
    static int status(CompletionContext<Object, ServiceInstance, Object> completion) {
        @Nullable Object response = completion.getClientResponse();
        if (response instanceof ResponseData data && data.getHttpStatus() != null) {
            return data.getHttpStatus().value();
        }
        return -1;
    }

    /** Whether a retry would repeat it: an I/O failure, or a 5xx, 408 or 429 answer. */
    static boolean isRetryWorthy(CompletionContext<Object, ServiceInstance, Object> completion) {
        if (completion.status() == CompletionContext.Status.FAILED) {
            return true;
        }
        int status = status(completion);
        return status >= 500 || status == 408 || status == 429;
    }

    /**
     * The request's failure as a breaker judges it: the client's exception, or the error answer as
     * the exception Spring's clients raise for it; {@code null} for a success.
     */
    static @Nullable Throwable failure(CompletionContext<Object, ServiceInstance, Object> completion) {
        if (completion.status() == CompletionContext.Status.FAILED) {
            Throwable thrown = completion.getThrowable();
            return thrown != null ? thrown : new IllegalStateException("load-balanced request failed");
        }
        int status = status(completion);
        if (status >= 500) {
            return new HttpServerErrorException(HttpStatusCode.valueOf(status));
        }
        if (status >= 400) {
            return new HttpClientErrorException(HttpStatusCode.valueOf(status));
        }
        return null;
    }
}
