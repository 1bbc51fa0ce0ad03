package io.github.resiliencestarter.idempotent;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Whether the application uses {@code @Idempotent}, and its store once it does. The store and the
 * executor are created when the first annotated method is resolved (at startup, when the
 * annotated methods of the beans are checked), never before: an application that adds the starter
 * and annotates nothing gets no store, no schema, no connection and no health component that could
 * fail it. Whatever acts on the store (the health check, the purge, the transactional completion,
 * metrics) asks here rather than for the store bean, so that asking never creates it.
 */
public final class IdempotencyActivation {

    private final Supplier<IdempotentExecutor> create;

    private final List<Consumer<Active>> listeners = new ArrayList<>();

    private volatile @Nullable Active active;

    /**
     * Creates the activation.
     *
     * @param create creates the executor (and so the store); its bean reports back through
     *     {@link #activated(IdempotencyStore, IdempotentExecutor)}
     */
    public IdempotencyActivation(Supplier<IdempotentExecutor> create) {
        this.create = Objects.requireNonNull(create, "create");
    }

    /**
     * The executor, created on the first call.
     *
     * @return the executor
     */
    public IdempotentExecutor executor() {
        Active current = active;
        if (current != null) {
            return current.executor();
        }
        IdempotentExecutor executor = create.get();
        // an executor bean of the application's own does not report back: its store is what it runs on
        activated(executor.store(), executor);
        return executor;
    }

    /**
     * Records that the store and the executor exist; the first call runs the listeners.
     *
     * @param store the store as configured, before any decoration
     * @param executor the executor on it
     */
    public void activated(IdempotencyStore store, IdempotentExecutor executor) {
        List<Consumer<Active>> toRun;
        Active now;
        synchronized (listeners) {
            if (active != null) {
                return;
            }
            now = new Active(store, executor);
            active = now;
            toRun = List.copyOf(listeners);
            listeners.clear();
        }
        toRun.forEach(listener -> listener.accept(now));
    }

    /**
     * The store and executor, if created; never creates them.
     *
     * @return them, or empty while no {@code @Idempotent} method has been resolved
     */
    public Optional<Active> ifActive() {
        return Optional.ofNullable(active);
    }

    /**
     * The store as configured, if created; never creates it. No allocation: asked on every
     * transaction by the JDBC completion.
     *
     * @return the store, or {@code null} while no {@code @Idempotent} method has been resolved
     */
    public @Nullable IdempotencyStore storeIfActive() {
        Active current = active;
        return current == null ? null : current.store();
    }

    /**
     * Runs an action once the store exists: now if it does, else when it is created.
     *
     * @param listener the action
     */
    public void whenActive(Consumer<Active> listener) {
        Active now;
        synchronized (listeners) {
            now = active;
            if (now == null) {
                listeners.add(listener);
                return;
            }
        }
        listener.accept(now);
    }

    /**
     * The store in use and its executor.
     *
     * @param store the store as configured, before any decoration (metrics, near cache)
     * @param executor the executor on it
     */
    public record Active(IdempotencyStore store, IdempotentExecutor executor) {
    }
}
