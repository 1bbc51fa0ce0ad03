package io.github.resiliencestarter.circuit;

import io.github.resiliencestarter.context.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The circuit breakers of an application, one per name (and, for per-instance breakers, per name
 * and downstream instance), created on first use from the named settings or the defaults.
 * Thread-safe.
 */
public final class CircuitRegistry {

    private final TimeSource time;

    private final CircuitObserver observer;

    private final ConcurrentMap<String, CircuitGuard> guards = new ConcurrentHashMap<>();

    /** The name whose settings each per-instance breaker takes, by the breaker's own name. */
    private final ConcurrentMap<String, String> instanceOf = new ConcurrentHashMap<>();

    private volatile Settings settings;

    private CircuitRegistry(Settings settings, TimeSource time, CircuitObserver observer) {
        this.settings = settings;
        this.time = time;
        this.observer = observer;
    }

    /**
     * A registry on the system clock.
     *
     * @param defaults the settings of names without their own
     * @param named settings per name
     * @param observer hears every breaker
     * @return the registry
     */
    public static CircuitRegistry of(CircuitBreakerConfig defaults, Map<String, CircuitBreakerConfig> named,
            CircuitObserver observer) {
        return of(defaults, named, observer, TimeSource.SYSTEM);
    }

    /**
     * A registry on the given clock.
     *
     * @param defaults the settings of names without their own
     * @param named settings per name
     * @param observer hears every breaker
     * @param time the breakers' clock
     * @return the registry
     */
    public static CircuitRegistry of(CircuitBreakerConfig defaults, Map<String, CircuitBreakerConfig> named,
            CircuitObserver observer, TimeSource time) {
        return new CircuitRegistry(new Settings(defaults, named), Objects.requireNonNull(time),
                Objects.requireNonNull(observer));
    }

    /**
     * The settings of a name.
     *
     * @param name the breaker's name
     * @return its own settings, or the defaults
     */
    public CircuitBreakerConfig config(String name) {
        return settings.of(name);
    }

    /**
     * The breaker of a name, created on first use.
     *
     * @param name the breaker's name
     * @return the breaker
     */
    public CircuitGuard guard(String name) {
        CircuitGuard guard = guards.get(name);
        return guard != null ? guard : guards.computeIfAbsent(name, key -> CircuitGuard.builder(key,
                settings.of(key)).timeSource(time).observer(observer).build());
    }

    /**
     * The breaker of one downstream instance under a name, created on first use with the name's
     * settings. Its own name is {@code name[instance]}.
     *
     * @param name the breaker's name
     * @param instance the instance, such as {@code host:port}
     * @return the breaker
     */
    public CircuitGuard guard(String name, String instance) {
        String key = name + "[" + instance + "]";
        CircuitGuard guard = guards.get(key);
        if (guard != null) {
            return guard;
        }
        instanceOf.putIfAbsent(key, name);
        return guards.computeIfAbsent(key, ignored -> CircuitGuard.builder(key, settings.of(name)).timeSource(time)
                .observer(observer).build());
    }

    /**
     * Removes the breakers of instances no call has asked for a permit in {@code idleNanos}, if
     * closed: an instance that left (a pod replaced, a scaled-down node) would otherwise keep its
     * breaker and meters for good. An open, half-open or ramping one stays: the balancer avoids it
     * on purpose, and it must keep its state until it recovers.
     *
     * @param idleNanos how long unused, in nanoseconds
     * @return how many were removed
     */
    public int removeIdleInstances(long idleNanos) {
        int removed = 0;
        for (String key : instanceOf.keySet()) {
            CircuitGuard guard = guards.get(key);
            if (guard != null && guard.nanosSinceAcquired() >= idleNanos && guard.state() == CircuitState.CLOSED
                    && guards.remove(key, guard)) {
                instanceOf.remove(key);
                observer.onRemoved(key);
                removed++;
            }
        }
        return removed;
    }

    /**
     * Every breaker created so far.
     *
     * @return a snapshot, in no particular order
     */
    public List<CircuitGuard> guards() {
        return new ArrayList<>(guards.values());
    }

    /**
     * Prepares new settings (live tuning): nothing changes until the returned step runs; then new
     * breakers use them and existing ones are reconfigured, keeping their state.
     *
     * @param defaults the new defaults
     * @param named the new settings per name
     * @return the step that publishes them
     */
    public Runnable prepare(CircuitBreakerConfig defaults, Map<String, CircuitBreakerConfig> named) {
        Settings next = new Settings(defaults, named);
        return () -> {
            settings = next;
            guards.forEach((key, guard) -> guard.reconfigure(next.of(instanceOf.getOrDefault(key, key))));
        };
    }

    /** Defaults and named settings, replaced together. */
    private record Settings(CircuitBreakerConfig defaults, Map<String, CircuitBreakerConfig> named) {

        Settings {
            named = Map.copyOf(named);
        }

        CircuitBreakerConfig of(String name) {
            return named.getOrDefault(name, defaults);
        }
    }
}
