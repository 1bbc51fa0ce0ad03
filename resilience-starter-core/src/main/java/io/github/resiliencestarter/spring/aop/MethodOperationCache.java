package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Per-method settings, resolved once and then read without locking or reflection on every call.
 * Methods without the annotation are cached too, as {@link #ABSENT}.
 *
 * @param <O> the resolved operation type
 */
public final class MethodOperationCache<O> {

    private static final Object ABSENT = new Object();

    private final ConcurrentMap<Key, Object> cache = new ConcurrentHashMap<>(64);

    private final BiFunction<Method, @Nullable Class<?>, @Nullable O> resolver;

    /**
     * Creates a cache.
     *
     * @param resolver resolves a method on a target class; returns {@code null} when not annotated
     *     and throws when the settings are invalid
     */
    public MethodOperationCache(BiFunction<Method, @Nullable Class<?>, @Nullable O> resolver) {
        this.resolver = resolver;
    }

    /**
     * The operation for {@code method} on {@code targetClass}.
     *
     * @param method the method
     * @param targetClass the bean's class, or {@code null}
     * @return the operation, or {@code null} when the method is not annotated
     */
    @SuppressWarnings("unchecked")
    public @Nullable O get(Method method, @Nullable Class<?> targetClass) {
        Key key = new Key(method, targetClass);
        Object cached = cache.get(key);
        if (cached == null) {
            O resolved = resolver.apply(method, targetClass);
            cached = resolved != null ? resolved : ABSENT;
            Object raced = cache.putIfAbsent(key, cached);
            if (raced != null) {
                cached = raced;
            }
        }
        return cached == ABSENT ? null : (O) cached;
    }

    /**
     * A cache with the given resolver that has already resolved every annotated method this one
     * has, so that publishing it costs the hot path nothing.
     *
     * @param resolver the new resolver
     * @return the filled cache
     * @throws RuntimeException when the new resolver refuses a method (nothing is published)
     */
    public MethodOperationCache<O> refilledWith(BiFunction<Method, @Nullable Class<?>, @Nullable O> resolver) {
        MethodOperationCache<O> next = new MethodOperationCache<>(resolver);
        cache.forEach((key, value) -> {
            if (value != ABSENT) {
                next.get(key.method(), key.targetClass());
            }
        });
        return next;
    }

    /**
     * The operations resolved so far (annotated methods only), for the actuator endpoint.
     *
     * @return a snapshot
     */
    @SuppressWarnings("unchecked")
    public List<O> resolved() {
        return cache.values().stream().filter(value -> value != ABSENT).map(value -> (O) value).toList();
    }

    private record Key(Method method, @Nullable Class<?> targetClass) {

        @Override
        public boolean equals(@Nullable Object other) {
            return other instanceof Key key && method.equals(key.method)
                    && Objects.equals(targetClass, key.targetClass);
        }

        @Override
        public int hashCode() {
            return method.hashCode() * 31 + Objects.hashCode(targetClass);
        }
    }
}
