package io.github.resiliencestarter.autoconfigure.tuning;

import org.springframework.boot.context.properties.bind.Binder;

/**
 * A group of settings that live tuning reloads beside timeouts and retries, contributed by the
 * feature that owns it (the circuit breakers, present only with their engine on the class path).
 */
public interface TunableGroup {

    /**
     * Binds the group again and checks it exactly as at startup, without applying anything.
     *
     * @param binder binds from the current environment
     * @return the step that puts the new settings in force
     * @throws RuntimeException when a value is refused (nothing is applied)
     */
    Runnable prepare(Binder binder);
}
