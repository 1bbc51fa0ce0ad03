package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.spring.webflux.ReactiveRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Reads the idempotency key header's field lines and marks replayed responses, for the servlet request bound to
 * the thread or the reactive request restored into it ({@link ReactiveRequest}).
 */
public final class RequestHeaders {

    /** The request header carrying the client's key. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The response header marking a replayed result. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private static final boolean SERVLET = ClassUtils.isPresent(
            "org.springframework.web.context.request.ServletRequestAttributes", RequestHeaders.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", RequestHeaders.class.getClassLoader());

    private static final boolean REACTIVE = ClassUtils.isPresent(
            "org.springframework.web.server.ServerWebExchange", RequestHeaders.class.getClassLoader())
            && ClassUtils.isPresent("io.micrometer.context.ThreadLocalAccessor", RequestHeaders.class.getClassLoader());

    private RequestHeaders() {
    }

    /**
     * Every field line of a header of the current request, in order.
     *
     * @param name the header name
     * @return its values, empty when absent or outside a request
     */
    public static List<String> headers(String name) {
        List<String> values = SERVLET ? Servlet.headers(name) : null;
        if (values == null && REACTIVE) {
            values = Reactive.headers(name);
        }
        return values == null ? List.of() : values;
    }

    /** Adds {@code Idempotent-Replayed: true} to the current response. */
    public static void markReplayed() {
        replayMarker().run();
    }

    /**
     * Marks the current request's response as a replay later, from any thread: for results that
     * complete after the calling thread has moved on.
     *
     * @return sets {@code Idempotent-Replayed: true} on this request's response when run
     */
    public static Runnable replayMarker() {
        Runnable marker = SERVLET ? Servlet.replayMarker() : null;
        if (marker == null && REACTIVE) {
            marker = Reactive.replayMarker();
        }
        return marker != null ? marker : () -> { };
    }

    /** Kept apart so the servlet API is loaded only when present. */
    private static final class Servlet {

        static @Nullable List<String> headers(String name) {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            return attributes instanceof ServletRequestAttributes servlet
                    ? Collections.list(servlet.getRequest().getHeaders(name)) : null;
        }

        static @Nullable Runnable replayMarker() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            HttpServletResponse response = attributes instanceof ServletRequestAttributes servlet
                    ? servlet.getResponse() : null;
            return response == null ? null : () -> response.setHeader(REPLAYED, "true");
        }
    }

    /** Kept apart so WebFlux is loaded only when present. */
    private static final class Reactive {

        static @Nullable List<String> headers(String name) {
            ReactiveRequest request = ReactiveRequest.current();
            if (request == null) {
                return null;
            }
            // forEach, not get: HttpHeaders.get takes an Object on Framework 6 and a String on 7
            List<String> values = new ArrayList<>();
            request.exchange().getRequest().getHeaders().forEach((header, fieldValues) -> {
                if (header.equalsIgnoreCase(name)) {
                    values.addAll(fieldValues);
                }
            });
            return values;
        }

        static @Nullable Runnable replayMarker() {
            ReactiveRequest request = ReactiveRequest.current();
            return request == null ? null
                    : () -> request.exchange().getResponse().getHeaders().set(REPLAYED, "true");
        }
    }
}
