package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.spring.grpc.InboundCall;
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
 * the thread, the reactive request restored into it ({@link ReactiveRequest}) or the gRPC call it
 * handles ({@link InboundCall}: metadata for headers).
 */
public final class RequestHeaders {

    /** The request header carrying the client's key. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The response header marking a replayed result. */
    public static final String REPLAYED = ResilienceHeaders.IDEMPOTENT_REPLAYED;

    private static final boolean SERVLET = ClassUtils.isPresent(
            "org.springframework.web.context.request.ServletRequestAttributes", RequestHeaders.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", RequestHeaders.class.getClassLoader());

    private static final boolean REACTIVE = ClassUtils.isPresent(
            "org.springframework.web.server.ServerWebExchange", RequestHeaders.class.getClassLoader())
            && ClassUtils.isPresent("io.micrometer.context.ThreadLocalAccessor", RequestHeaders.class.getClassLoader());

    private static final boolean GRPC = ClassUtils.isPresent("io.grpc.Context", RequestHeaders.class.getClassLoader());

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
        if (values == null && GRPC) {
            values = Grpc.headers(name);
        }
        return values == null ? List.of() : values;
    }

    /**
     * Every field line of a header, from headers of either Framework line: read with
     * {@code forEach}, not {@code get} or {@code getOrEmpty}, which take an {@code Object} on
     * Framework 6 and a {@code String} on 7, so one compiled jar could not call both.
     *
     * @param headers the headers
     * @param name the header name, any case
     * @return its values in order, empty when absent
     */
    public static List<String> values(org.springframework.http.HttpHeaders headers, String name) {
        List<String> values = new ArrayList<>();
        headers.forEach((header, fieldValues) -> {
            if (header.equalsIgnoreCase(name)) {
                values.addAll(fieldValues);
            }
        });
        return values;
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
        if (marker == null && GRPC) {
            marker = Grpc.replayMarker();
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
            return values(request.exchange().getRequest().getHeaders(), name);
        }

        static @Nullable Runnable replayMarker() {
            ReactiveRequest request = ReactiveRequest.current();
            return request == null ? null
                    : () -> request.exchange().getResponse().getHeaders().set(REPLAYED, "true");
        }
    }

    /** Kept apart so grpc-java is loaded only when present. */
    private static final class Grpc {

        static @Nullable List<String> headers(String name) {
            InboundCall call = InboundCall.current();
            return call == null ? null : call.headers(name);
        }

        static @Nullable Runnable replayMarker() {
            InboundCall call = InboundCall.current();
            return call == null ? null : call::markReplayed;
        }
    }
}
