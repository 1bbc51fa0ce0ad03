package io.github.resiliencestarter.timeout;

import io.github.resiliencestarter.core.Causes;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Tells which kind of timeout an exception (or one of its causes) stands for, so a transport's own
 * exception can be classified without knowing the transport.
 */
public final class TimeoutKinds {

    /** Causes deeper than this are not inspected; a guard against cyclic cause chains. */

    private TimeoutKinds() {
    }

    /**
     * The kind of timeout {@code error} represents.
     *
     * @param error any throwable, possibly {@code null}
     * @return the kind, or {@code null} when no timeout is found in the cause chain
     */
    public static @Nullable TimeoutKind of(@Nullable Throwable error) {
        return Causes.firstAnswer(error, TimeoutKinds::direct);
    }

    private static @Nullable TimeoutKind direct(Throwable error) {
        if (error instanceof ResilienceTimeoutException timeout) {
            return timeout.kind();
        }
        if (error instanceof HttpConnectTimeoutException) {
            return TimeoutKind.CONNECT;
        }
        if (error instanceof HttpTimeoutException) {
            return TimeoutKind.READ;
        }
        if (error instanceof SocketTimeoutException) {
            // the JDK says "Connect timed out" for connect and "Read timed out" for reads
            String message = error.getMessage();
            boolean connect = message != null && message.toLowerCase(Locale.ROOT).contains("connect");
            return connect ? TimeoutKind.CONNECT : TimeoutKind.READ;
        }
        return null;
    }
}
