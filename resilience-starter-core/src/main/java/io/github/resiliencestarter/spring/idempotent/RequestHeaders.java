package io.github.resiliencestarter.spring.idempotent;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** Reads the idempotency key header and marks replayed responses, when a servlet request is bound. */
public final class RequestHeaders {

    /** The request header carrying the client's key. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The response header marking a replayed result. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private static final boolean SERVLET = ClassUtils.isPresent(
            "org.springframework.web.context.request.ServletRequestAttributes", RequestHeaders.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", RequestHeaders.class.getClassLoader());

    private RequestHeaders() {
    }

    /**
     * A header of the current request.
     *
     * @param name the header name
     * @return its value, or {@code null} when absent or outside a request
     */
    public static @Nullable String header(String name) {
        return SERVLET ? Servlet.header(name) : null;
    }

    /** Adds {@code Idempotent-Replayed: true} to the current response. */
    public static void markReplayed() {
        if (SERVLET) {
            Servlet.markReplayed();
        }
    }

    /**
     * Marks the current request's response as a replay later, from any thread: for results that
     * complete after the calling thread has moved on.
     *
     * @return sets {@code Idempotent-Replayed: true} on this request's response when run
     */
    public static Runnable replayMarker() {
        return SERVLET ? Servlet.replayMarker() : () -> { };
    }

    /** Kept apart so the servlet API is loaded only when present. */
    private static final class Servlet {

        static @Nullable String header(String name) {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            return attributes instanceof ServletRequestAttributes servlet ? servlet.getRequest().getHeader(name) : null;
        }

        static void markReplayed() {
            replayMarker().run();
        }

        static Runnable replayMarker() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            HttpServletResponse response = attributes instanceof ServletRequestAttributes servlet
                    ? servlet.getResponse() : null;
            return response == null ? () -> { } : () -> response.setHeader(REPLAYED, "true");
        }
    }
}
