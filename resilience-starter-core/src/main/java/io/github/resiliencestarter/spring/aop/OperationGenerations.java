package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;

/**
 * The resolved operations of the tunable annotations ({@code @Timeout}, {@code @Retry}) as one
 * generation. Live tuning publishes every source's new operations in one step
 * ({@link #publishTogether}), and a call of a method that carries several of these annotations pins
 * the generation it entered with on its invocation, which the retry attempts and an OFFLOAD
 * hand-off carry along. So every interceptor of that call reads the same generation: a call never
 * sees one annotation's new settings beside another's old ones, however a reload interleaves.
 * Methods with one such annotation pin nothing and pay nothing for it.
 */
public final class OperationGenerations {

    private static final String PINNED = OperationGenerations.class.getName() + ".PINNED";

    private final List<Class<? extends Annotation>> shared;

    private volatile Generation current = new Generation(this, 0, new MethodOperationCache<?>[0]);

    /** The caches a {@link #publishTogether} is collecting; guarded by {@code this}. */
    private MethodOperationCache<?> @Nullable [] staged;

    /**
     * Creates generations of sources whose calls need no pin: each has a method's only annotation
     * of the set.
     */
    public OperationGenerations() {
        this(List.of());
    }

    /**
     * Creates generations shared by the sources of these annotations.
     *
     * @param shared the annotations whose combination on one method makes its calls pin a
     *     generation; listed up front, since a source may resolve a method before the next source
     *     exists
     */
    public OperationGenerations(List<Class<? extends Annotation>> shared) {
        this.shared = List.copyOf(shared);
    }

    /**
     * Adds a source's first operations.
     *
     * @param first the source's cache
     * @return the source's slot in every generation
     */
    synchronized int register(MethodOperationCache<?> first) {
        MethodOperationCache<?>[] caches = Arrays.copyOf(current.caches, current.caches.length + 1);
        caches[caches.length - 1] = first;
        current = new Generation(this, current.number, caches);
        return caches.length - 1;
    }

    /**
     * The generation in force.
     *
     * @return the newest published generation
     */
    public Generation current() {
        return current;
    }

    /**
     * The cache a source reads for a call: the pinned generation's when the call pinned one of
     * this set that holds the source, the current one's otherwise.
     */
    <O> MethodOperationCache<O> cache(@Nullable Generation pinned, int slot) {
        Generation generation = pinned != null && pinned.owner == this && slot < pinned.caches.length
                ? pinned : current;
        return generation.cache(slot);
    }

    /**
     * Whether a method carries two or more of the annotations of this set, so its calls pin one
     * generation. Asked once, when the method is resolved.
     *
     * @param method the method
     * @param targetClass the bean's class
     * @return {@code true} when the annotations share one generation per call
     */
    boolean shared(Method method, @Nullable Class<?> targetClass) {
        int found = 0;
        for (Class<? extends Annotation> type : shared) {
            if (AnnotatedMethods.find(method, targetClass, type) != null) {
                found++;
            }
        }
        return found > 1;
    }

    /**
     * Replaces one source's operations: in the generation being collected by
     * {@link #publishTogether}, or else at once in a new generation.
     */
    synchronized void replace(int slot, MethodOperationCache<?> next) {
        MethodOperationCache<?>[] collecting = staged;
        if (collecting != null) {
            collecting[slot] = next;
            return;
        }
        MethodOperationCache<?>[] caches = current.caches.clone();
        caches[slot] = next;
        current = new Generation(this, current.number + 1, caches);
    }

    /**
     * Runs the publishing steps of several sources and makes what they publish visible in one
     * write, as one new generation.
     *
     * @param steps the steps, each returned by a source's {@code prepare}
     */
    public synchronized void publishTogether(Runnable steps) {
        staged = current.caches.clone();
        try {
            steps.run();
            current = new Generation(this, current.number + 1, staged);
        } finally {
            staged = null;
        }
    }

    /**
     * The generation a call pinned, if it did.
     *
     * @param invocation the call
     * @return the pinned generation, or {@code null}
     */
    static @Nullable Generation pinned(MethodInvocation invocation) {
        return invocation instanceof ProxyMethodInvocation proxied
                ? (Generation) proxied.getUserAttribute(PINNED) : null;
    }

    /**
     * Pins a generation on a call: its later interceptors, retry attempts included, read it.
     *
     * @param invocation the call
     * @param generation the generation its first interceptor read
     */
    static void pin(MethodInvocation invocation, Generation generation) {
        if (invocation instanceof ProxyMethodInvocation proxied) {
            proxied.setUserAttribute(PINNED, generation);
        }
    }

    /** One published set of caches, one per source; immutable once published. */
    public static final class Generation {

        private final OperationGenerations owner;

        private final long number;

        private final MethodOperationCache<?>[] caches;

        private Generation(OperationGenerations owner, long number, MethodOperationCache<?>[] caches) {
            this.owner = owner;
            this.number = number;
            this.caches = caches;
        }

        /**
         * The number of reloads published before this generation.
         *
         * @return 0 for the startup settings, one more per reload
         */
        public long number() {
            return number;
        }

        @SuppressWarnings("unchecked")
        <O> MethodOperationCache<O> cache(int slot) {
            return (MethodOperationCache<O>) caches[slot];
        }
    }
}
