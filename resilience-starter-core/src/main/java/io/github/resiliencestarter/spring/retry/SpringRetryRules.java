package io.github.resiliencestarter.spring.retry;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.retry.RetryAfter;
import io.github.resiliencestarter.retry.RetryAfterSource;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryRule;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.NonTransientDataAccessException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.ClassUtils;
import org.springframework.validation.BindException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.client.RestClientResponseException;

/**
 * Classifies Spring's exception types (DESIGN §4): HTTP 5xx, 408 and 429 and transient data access
 * failures (lock wait, deadlock loser, query timeout) and Redis connection failures are retried;
 * other HTTP 4xx, permanent data access failures and validation errors are not. Reads
 * {@code Retry-After} from 429 and 503 responses. Each part is active only when its library is.
 */
public final class SpringRetryRules implements RetryRule, RetryAfterSource {

    private static final ClassLoader LOADER = SpringRetryRules.class.getClassLoader();

    private static final boolean WEB = ClassUtils.isPresent("org.springframework.web.client.RestClientResponseException",
            LOADER);

    private static final boolean DAO = ClassUtils.isPresent("org.springframework.dao.TransientDataAccessException",
            LOADER);

    private static final String REDIS_CONNECTION_FAILURE = "org.springframework.data.redis.RedisConnectionFailureException";

    private static final String VALIDATION = "jakarta.validation.ValidationException";

    private final TimeSource time;

    /**
     * Creates the rules.
     *
     * @param time the wall clock HTTP-date {@code Retry-After} values are compared with
     */
    public SpringRetryRules(TimeSource time) {
        this.time = time;
    }

    @Override
    public Verdict classify(Throwable error) {
        String name = error.getClass().getName();
        if (REDIS_CONNECTION_FAILURE.equals(name)) {
            return Verdict.RETRY;
        }
        if (error instanceof BindException || isSubclassOf(error, VALIDATION)) {
            return Verdict.NO_RETRY;
        }
        if (WEB) {
            Verdict web = WebRules.classify(error);
            if (web != Verdict.ABSTAIN) {
                return web;
            }
        }
        if (DAO) {
            return DaoRules.classify(error);
        }
        return Verdict.ABSTAIN;
    }

    @Override
    public String explain(Throwable error, Verdict verdict) {
        String type = error.getClass().getSimpleName();
        if (verdict == Verdict.RETRY) {
            return type + " is a transient failure (rule R-2)";
        }
        if (error instanceof BindException || isSubclassOf(error, VALIDATION)) {
            return type + " is invalid input, a client error (rule R-P5)";
        }
        String web = WEB ? WebRules.explain(error) : null;
        return web != null ? web : type + " is a permanent failure (rule R-2)";
    }

    @Override
    public @Nullable Duration retryAfter(Throwable error) {
        return WEB ? WebRules.retryAfter(error, time) : null;
    }

    private static boolean isSubclassOf(Throwable error, String typeName) {
        for (Class<?> type = error.getClass(); type != null; type = type.getSuperclass()) {
            if (type.getName().equals(typeName)) {
                return true;
            }
        }
        return false;
    }

    /** Kept apart so spring-web is loaded only when present. */
    private static final class WebRules {

        /** 5xx, 408 and 429 are transient, other 4xx permanent. */
        static Verdict forStatus(HttpStatusCode status) {
            int code = status.value();
            if (code >= 500 || code == 408 || code == 429) {
                return Verdict.RETRY;
            }
            return code >= 400 ? Verdict.NO_RETRY : Verdict.ABSTAIN;
        }

        static Verdict classify(Throwable error) {
            if (error instanceof RestClientResponseException response) {
                HttpHeaders headers = response.getResponseHeaders();
                if (headers != null && "true".equalsIgnoreCase(headers.getFirst(ResilienceHeaders.RETRY_EXHAUSTED))) {
                    // the downstream already retried this failure; retrying here would multiply the load
                    return Verdict.NO_RETRY;
                }
                return forStatus(response.getStatusCode());
            }
            if (error instanceof ErrorResponse response) {
                return forStatus(response.getStatusCode());
            }
            return Verdict.ABSTAIN;
        }

        static @Nullable String explain(Throwable error) {
            String type = error.getClass().getSimpleName();
            if (error instanceof RestClientResponseException response) {
                HttpHeaders headers = response.getResponseHeaders();
                if (headers != null && "true".equalsIgnoreCase(headers.getFirst(ResilienceHeaders.RETRY_EXHAUSTED))) {
                    return type + ": the downstream already retried it (" + ResilienceHeaders.RETRY_EXHAUSTED
                            + "), and retrying again would multiply the load (rule R-P2)";
                }
                return type + " (HTTP " + response.getStatusCode().value() + ") is a client error (rule R-P5)";
            }
            if (error instanceof ErrorResponse response) {
                return type + " (HTTP " + response.getStatusCode().value() + ") is a client error (rule R-P5)";
            }
            return null;
        }

        static @Nullable Duration retryAfter(Throwable error, TimeSource time) {
            if (error instanceof RestClientResponseException response) {
                int code = response.getStatusCode().value();
                HttpHeaders headers = response.getResponseHeaders();
                if ((code == 429 || code == 503) && headers != null) {
                    return RetryAfter.parse(headers.getFirst(HttpHeaders.RETRY_AFTER), time);
                }
            }
            return null;
        }
    }

    /** Kept apart so spring-tx's data access exceptions are loaded only when present. */
    private static final class DaoRules {

        static Verdict classify(Throwable error) {
            if (error instanceof TransientDataAccessException || error instanceof RecoverableDataAccessException) {
                return Verdict.RETRY;
            }
            if (error instanceof NonTransientDataAccessException) {
                return Verdict.NO_RETRY;
            }
            return Verdict.ABSTAIN;
        }
    }
}
