package io.github.resiliencestarter.retry.internal;

import io.github.resiliencestarter.retry.NonRetryableException;
import io.github.resiliencestarter.retry.RequestNotSentException;
import io.github.resiliencestarter.retry.RetryAfterSource;
import io.github.resiliencestarter.retry.RetryClassifier;
import io.github.resiliencestarter.retry.RetryRule;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.timeout.ConnectTimeoutException;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.ResilienceTimeoutException;
import io.github.resiliencestarter.timeout.TimeoutKind;
import io.github.resiliencestarter.timeout.TimeoutKinds;
import io.github.resiliencestarter.timeout.TimeoutRejectedException;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.sql.SQLNonTransientException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The classification of DESIGN §4 for types the engine knows without any framework: the
 * starter's own exceptions, JDK network and JDBC exceptions, and (by name, without a dependency)
 * Resilience4j's open-circuit exception, which is never retried (rule O-3).
 */
public final class DefaultRetryRules implements RetryRule, RetryAfterSource {

    /** The shared instance. */
    public static final DefaultRetryRules INSTANCE = new DefaultRetryRules();

    private static final String OPEN_CIRCUIT = "io.github.resilience4j.circuitbreaker.CallNotPermittedException";

    private static final List<Class<? extends Throwable>> NOT_SENT_TYPES = List.of(RequestNotSentException.class,
            ConnectException.class, NoRouteToHostException.class, ConnectTimeoutException.class,
            HttpConnectTimeoutException.class);

    private DefaultRetryRules() {
    }

    /**
     * Whether this single throwable must end the retries whatever {@code retryFor} says: a
     * declared non-retryable error (idempotency conflicts included), a spent deadline or an open
     * circuit. Another attempt cannot change any of them, and retrying them would undo a
     * safety rule (R-2, C-1, O-3).
     *
     * @param error the throwable (not its causes)
     * @return {@code true} when no configuration may retry it
     */
    public static boolean isNeverRetryable(Throwable error) {
        return error instanceof NonRetryableException || error instanceof DeadlineExceededException
                || OPEN_CIRCUIT.equals(error.getClass().getName());
    }

    @Override
    public Verdict classify(Throwable error) {
        if (isNeverRetryable(error) || error instanceof TimeoutRejectedException
                || error instanceof IllegalArgumentException || error instanceof UnsupportedOperationException
                || error instanceof SQLNonTransientException) {
            return Verdict.NO_RETRY;
        }
        if (error instanceof RetryableException || isNotSent(error) || error instanceof SQLTransientException
                || error instanceof SocketTimeoutException || error instanceof HttpTimeoutException
                || error instanceof SocketException || error instanceof EOFException) {
            // connection reset or closed mid-answer: transient I/O, like a read timeout
            return Verdict.RETRY;
        }
        if (error instanceof ResilienceTimeoutException timeout && timeout.kind() != TimeoutKind.DEADLINE) {
            return Verdict.RETRY;
        }
        return Verdict.ABSTAIN;
    }

    @Override
    public String explain(Throwable error, Verdict verdict) {
        String type = error.getClass().getSimpleName();
        if (verdict == Verdict.RETRY) {
            return type + " is a transient failure (rule R-2)";
        }
        if (isNeverRetryable(error)) {
            return neverRetryableReason(error);
        }
        if (error instanceof TimeoutRejectedException) {
            return type + ": the local executor is saturated, and retrying would add load (rule R-6)";
        }
        if (error instanceof IllegalArgumentException || error instanceof UnsupportedOperationException) {
            return type + " is a client error (rule R-P5)";
        }
        return type + " is a permanent failure (rule R-2)";
    }

    /**
     * Why a throwable {@link #isNeverRetryable(Throwable)} ends the retries.
     *
     * @param error the throwable
     * @return a short clause with the rule id
     */
    public static String neverRetryableReason(Throwable error) {
        String type = error.getClass().getSimpleName();
        if (error instanceof DeadlineExceededException) {
            return type + ": the caller's deadline is spent (rule C-1)";
        }
        if (OPEN_CIRCUIT.equals(error.getClass().getName())) {
            return type + ": the circuit breaker is open (rule O-3)";
        }
        return type + " is declared non-retryable (rule R-2)";
    }

    @Override
    public @Nullable Duration retryAfter(Throwable error) {
        return error instanceof RetryableException retryable ? retryable.retryAfter() : null;
    }

    /**
     * Whether this single throwable says the request never left or never arrived.
     *
     * @param error the throwable
     * @return {@code true} for refused connections and connect timeouts
     */
    public static boolean isNotSent(Throwable error) {
        return isNotSentType(error.getClass())
                || (error instanceof SocketTimeoutException && TimeoutKinds.of(error) == TimeoutKind.CONNECT);
    }

    /**
     * Whether every instance of {@code type} says the request never left or never arrived.
     *
     * @param type an exception type
     * @return {@code true} for refused-connection and connect-timeout types
     */
    public static boolean isNotSentType(Class<?> type) {
        for (Class<? extends Throwable> notSent : NOT_SENT_TYPES) {
            if (notSent.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }
}
