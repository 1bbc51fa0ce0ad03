package io.github.resiliencestarter.spring.webflux;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.springframework.web.server.ServerWebExchange;

/**
 * The reactive request a handler runs for, and its caller's scope once Spring Security has
 * authenticated it. Written into Reactor's context by the web filters and restored into a thread
 * local wherever the request's operators run (automatic context propagation), so the interceptors
 * read it as they read the servlet request.
 *
 * @param exchange the exchange
 * @param scope the authenticated caller's name, empty for an anonymous one, {@code null} before
 *     the scope filter ran
 */
public record ReactiveRequest(ServerWebExchange exchange, @Nullable String scope) {

    /** The context-propagation key. */
    public static final String KEY = "resilience.reactive-request";

    private static final ThreadLocal<@Nullable ReactiveRequest> CURRENT = new ThreadLocal<>();

    /**
     * The request of the current thread.
     *
     * @return the request, or {@code null} outside a reactive request
     */
    public static @Nullable ReactiveRequest current() {
        return CURRENT.get();
    }

    /** Moves {@link ReactiveRequest} between Reactor's context and the thread. */
    public static final class Accessor implements ThreadLocalAccessor<ReactiveRequest> {

        @Override
        public Object key() {
            return KEY;
        }

        @Override
        public @Nullable ReactiveRequest getValue() {
            return CURRENT.get();
        }

        @Override
        public void setValue(ReactiveRequest value) {
            CURRENT.set(value);
        }

        @Override
        public void setValue() {
            CURRENT.remove();
        }
    }
}
