package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Per-method settings, resolved once and then read without locking or reflection on every call.
 * Methods without the annotation are cached too, as {@link #ABSENT}.
 *
 * @param <O> the resolved operation type
 */
public final class MethodOperationCache<O> {

    private static final Object ABSENT = new Object();

    /**
     * Keyed by method alone, so a lookup allocates nothing; the few target classes that share a
     * method (a method inherited by several beans) hang off it as a short list.
     */
    private final ConcurrentMap<Method, Resolved> cache = new ConcurrentHashMap<>(64);

    /**
     * The same entries by the identity of the {@code Method} object a proxy passes (each proxy
     * holds its own copies, created once): found by one identity hash and a comparison of
     * references, where the map above compares declaring class, name, return and parameter types
     * of two equal copies (about a tenth of an annotated call). Copied on write; pairs of method
     * and chain head, open addressing.
     */
    private volatile @Nullable Object[] byIdentity = new Object[2 * 16];

    /** Methods the identity table holds; it stops growing at {@link #MAX_IDENTITY_ENTRIES}. */
    private int identityEntries;

    /** Set once the identity table is full: a miss then goes to the map without taking the lock. */
    private volatile boolean identityFull;

    private static final int MAX_IDENTITY_ENTRIES = 1 << 14;

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
        Resolved found = Resolved.find(identityHead(method), targetClass);
        if (found == null) {
            found = slowGet(method, targetClass);
        }
        return found.operation == ABSENT ? null : (O) found.operation;
    }

    private Resolved slowGet(Method method, @Nullable Class<?> targetClass) {
        Resolved head = cache.get(method);
        Resolved found = Resolved.find(head, targetClass);
        if (found == null) {
            // keyed by the class as called, resolved on the class the user wrote (not a CGLIB subclass)
            O resolved = resolver.apply(method, targetClass != null ? ClassUtils.getUserClass(targetClass) : null);
            Object value = resolved != null ? resolved : ABSENT;
            head = cache.compute(method, (key, current) -> Resolved.find(current, targetClass) != null
                    ? current : new Resolved(targetClass, value, current));
            // the compute above left an entry for this class in the chain
            found = Objects.requireNonNull(Resolved.find(head, targetClass));
        }
        remember(method, Objects.requireNonNull(head, "the chain holds the entry just found"));
        return found;
    }

    private @Nullable Resolved identityHead(Method method) {
        @Nullable Object[] table = byIdentity;
        int mask = table.length - 1;
        for (int i = (System.identityHashCode(method) << 1) & mask; ; i = (i + 2) & mask) {
            Object key = table[i];
            if (key == method) {
                return (Resolved) table[i + 1];
            }
            if (key == null) {
                return null;
            }
        }
    }

    /** Publishes the chain of {@code method} (this copy of it) in a new identity table. */
    private void remember(Method method, Resolved head) {
        if (!identityFull) {
            publish(method, head);
        }
    }

    private synchronized void publish(Method method, Resolved head) {
        @Nullable Object[] table = byIdentity;
        boolean known = identityHead(method) != null;
        if (!known && identityEntries >= MAX_IDENTITY_ENTRIES) {
            // the map still answers: only the shortcut stops growing
            identityFull = true;
            return;
        }
        int entries = known ? identityEntries : identityEntries + 1;
        // at most half full, so a probe ends at an empty slot soon
        int length = table.length;
        while (entries * 2 * 2 > length) {
            length *= 2;
        }
        @Nullable Object[] next = new Object[length];
        for (int i = 0; i < table.length; i += 2) {
            if (table[i] != null && table[i] != method) {
                put(next, table[i], table[i + 1]);
            }
        }
        put(next, method, head);
        identityEntries = entries;
        byIdentity = next;
    }

    private static void put(@Nullable Object[] table, Object key, @Nullable Object value) {
        int mask = table.length - 1;
        int i = (System.identityHashCode(key) << 1) & mask;
        while (table[i] != null) {
            i = (i + 2) & mask;
        }
        table[i] = key;
        table[i + 1] = value;
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
        cache.forEach((method, head) -> {
            for (Resolved entry = head; entry != null; entry = entry.next) {
                if (entry.operation != ABSENT) {
                    next.get(method, entry.targetClass);
                }
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
        List<O> operations = new ArrayList<>();
        for (Resolved head : cache.values()) {
            for (Resolved entry = head; entry != null; entry = entry.next) {
                if (entry.operation != ABSENT) {
                    operations.add((O) entry.operation);
                }
            }
        }
        return operations;
    }

    /** One target class's operation (or {@link #ABSENT}) for a method; immutable, newest first. */
    private record Resolved(@Nullable Class<?> targetClass, Object operation, @Nullable Resolved next) {

        static @Nullable Resolved find(@Nullable Resolved head, @Nullable Class<?> targetClass) {
            for (Resolved entry = head; entry != null; entry = entry.next) {
                if (entry.targetClass == targetClass) {
                    return entry;
                }
            }
            return null;
        }
    }
}
