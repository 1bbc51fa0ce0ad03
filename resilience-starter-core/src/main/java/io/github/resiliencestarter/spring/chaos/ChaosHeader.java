package io.github.resiliencestarter.spring.chaos;

import io.github.resiliencestarter.spring.idempotent.PrincipalScopeResolver;
import io.github.resiliencestarter.spring.idempotent.RequestHeaders;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The faults the current request asks for in the chaos header, honoured only for an allowed
 * caller: an authenticated principal on the allow-list, or, in an application without a security
 * filter chain, {@value #ANONYMOUS} when the list names it. An unauthenticated caller of a secured
 * application is never allowed, whatever the list says.
 */
public class ChaosHeader implements Supplier<Set<String>> {

    /** The allow-list entry for callers of an application that authenticates no one. */
    public static final String ANONYMOUS = "anonymous";

    private final String name;

    private final Set<String> allowedCallers;

    private final boolean securedApplication;

    private final PrincipalScopeResolver callers;

    /**
     * Creates the reader.
     *
     * @param name the header, such as {@code X-Resilience-Chaos}
     * @param allowedCallers principal names, or {@value #ANONYMOUS}; empty: the header is ignored
     * @param securedApplication whether a security filter chain authenticates callers
     */
    public ChaosHeader(String name, List<String> allowedCallers, boolean securedApplication) {
        this.name = name;
        this.allowedCallers = Set.copyOf(allowedCallers);
        this.securedApplication = securedApplication;
        this.callers = new PrincipalScopeResolver(false);
    }

    @Override
    public Set<String> get() {
        List<String> values = RequestHeaders.headers(name);
        if (values.isEmpty() || allowedCallers.isEmpty() || !isAllowed(callers.currentScope())) {
            return Set.of();
        }
        Set<String> faults = new HashSet<>();
        for (String value : values) {
            for (String fault : value.split(",")) {
                if (!fault.isBlank()) {
                    faults.add(fault.trim());
                }
            }
        }
        return faults;
    }

    private boolean isAllowed(String caller) {
        if (caller.isEmpty()) {
            return !securedApplication && allowedCallers.contains(ANONYMOUS);
        }
        return allowedCallers.contains(caller);
    }
}
