package io.github.resiliencestarter.testsupport.contract;

import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One way into an {@code @Idempotent} execution, driven as its clients drive it: an HTTP request
 * with an {@code Idempotency-Key}, a gRPC call with {@code idempotency-key} metadata, a message whose
 * id is the key. Behind it, the work is {@link ContractWork#perform}, under the entry point's
 * {@link #name()}; in front of the starter, the entry point tells {@link ContractWork#arrived} of
 * each request, so a test knows when duplicates have reached it.
 */
public interface EntryPoint {

    /**
     * The entry point's name: effects are counted under it.
     *
     * @return a short name, for example {@code webflux}
     */
    String name();

    /**
     * What this entry point has.
     *
     * @return its capabilities
     */
    Set<EntryPointCapability> capabilities();

    /**
     * Sends one keyed request without a deadline and waits for what its client gets.
     *
     * @param caller the authenticated caller (ignored without {@link EntryPointCapability#CALLERS})
     * @param key the idempotency key
     * @param payload the request's payload, {@link ContractWork}'s directives included
     * @return the answer; for an entry point without {@link EntryPointCapability#ANSWERS}, a 202
     *     once the request was handed over
     */
    default ContractAnswer send(String caller, String key, String payload) {
        return send(caller, key, payload, null);
    }

    /**
     * Sends one keyed request under a caller's deadline and waits for what its client gets.
     *
     * @param caller the authenticated caller (ignored without {@link EntryPointCapability#CALLERS})
     * @param key the idempotency key
     * @param payload the request's payload
     * @param budget the caller's deadline, as the entry point carries one in (ignored without
     *     {@link EntryPointCapability#DEADLINES}); {@code null} for none
     * @return the answer, as {@link #send(String, String, String)} says
     */
    ContractAnswer send(String caller, String key, String payload, @Nullable Duration budget);

    /**
     * The same entry point in a second process of the module's application.
     *
     * @param process the second process, started
     * @return a driver of the entry point there
     * @throws UnsupportedOperationException without {@link EntryPointCapability#KILLABLE}
     */
    default EntryPoint in(ContractProcess process) {
        throw new UnsupportedOperationException(name() + " does not run in a second process");
    }
}
