package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.EntryPointCaller;
import io.github.resiliencestarter.idempotent.IdempotencyScopeException;
import io.github.resiliencestarter.spring.webflux.ReactiveRequest;
import java.security.Principal;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Scopes keys by the authenticated principal: the caller an entry point knows for the running call
 * ({@link EntryPointCaller}, such as a gRPC call's principal), else the caller the request resolved once
 * authentication ran, which its trace context carries to every thread the call reaches (see
 * {@code CallerScopeFilter} and {@code CallerScopeWebFilter}), when it names one; else Spring
 * Security's authentication on the running thread, else the reactive or servlet request's
 * principal on the thread, else the carried anonymous caller, else anonymous. A named carried
 * caller comes first: a pool thread may hold a principal it inherited from whichever request
 * created it ({@code MODE_INHERITABLETHREADLOCAL}), which is not the caller of the task it runs
 * now. An anonymous one does not: an application's own authentication may run after the scope
 * filter, and the thread then knows better.
 *
 * <p>Fails closed in a secured application: a call on a thread with no authentication, no carried
 * caller and no request (the application's own executor, a thread the context never reached) is
 * refused with {@link IdempotencyScopeException} rather than run in the shared anonymous scope,
 * where one user could replay another's response. An anonymous caller that came through the
 * security chain is resolved (its scope is empty), so it is not refused.
 */
public class PrincipalScopeResolver implements IdempotencyScopeResolver {

    private static final ClassLoader LOADER = PrincipalScopeResolver.class.getClassLoader();

    private static final boolean SECURITY = ClassUtils.isPresent(
            "org.springframework.security.core.context.SecurityContextHolder", LOADER);

    private static final boolean SERVLET = ClassUtils.isPresent(
            "org.springframework.web.context.request.ServletRequestAttributes", LOADER)
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", LOADER);

    private static final boolean REACTIVE = ClassUtils.isPresent("org.springframework.web.server.ServerWebExchange",
            LOADER) && ClassUtils.isPresent("io.micrometer.context.ThreadLocalAccessor", LOADER);

    private final boolean securedApplication;

    private final List<EntryPointCaller> entryPoints;

    /** A resolver for an application without a security filter chain: an unknown caller is anonymous. */
    public PrincipalScopeResolver() {
        this(false);
    }

    /**
     * Creates the resolver.
     *
     * @param securedApplication whether the application authenticates its callers (a Spring
     *     Security filter chain exists): then a call whose caller cannot be resolved fails closed
     */
    public PrincipalScopeResolver(boolean securedApplication) {
        this(securedApplication, List.of());
    }

    /**
     * Creates the resolver.
     *
     * @param securedApplication whether the application authenticates its callers (a Spring
     *     Security filter chain exists): then a call whose caller cannot be resolved fails closed
     * @param entryPoints callers entry points know beyond the thread's holders (a gRPC call's
     *     principal), asked first
     */
    public PrincipalScopeResolver(boolean securedApplication, List<EntryPointCaller> entryPoints) {
        this.securedApplication = securedApplication;
        this.entryPoints = List.copyOf(entryPoints);
    }

    @Override
    public String currentScope() {
        for (EntryPointCaller entryPoint : entryPoints) {
            String scope = entryPoint.scope();
            if (scope != null) {
                return scope;
            }
        }
        String carried = TraceContextHolder.current().callerScope();
        if (carried != null && !carried.isEmpty()) {
            return carried;
        }
        if (SECURITY) {
            String name = SecurityScope.name(SecurityContextHolder.getContext());
            if (name != null) {
                return name;
            }
        }
        if (REACTIVE) {
            String scope = ReactiveScope.name();
            if (scope != null) {
                return scope;
            }
        }
        if (SERVLET) {
            String name = ServletScope.name();
            if (name != null) {
                return name;
            }
        }
        if (carried != null) {
            // resolved as anonymous where the request passed the scope filter, and nothing here says otherwise
            return carried;
        }
        if (securedApplication && !(SECURITY && SecurityScope.isAnonymous(SecurityContextHolder.getContext()))) {
            throw new IdempotencyScopeException("The application authenticates its callers, but this call on "
                    + Thread.currentThread().getName() + " carries none: the idempotency key cannot be scoped to "
                    + "the caller. Run the call on the request thread, or through an executor that carries the "
                    + "trace context (TTL) or the security context");
        }
        return "";
    }

    /** Kept apart so Spring Security is loaded only when present. */
    private static final class SecurityScope {

        static @Nullable String name(@Nullable SecurityContext context) {
            Authentication authentication = context != null ? context.getAuthentication() : null;
            if (authentication == null || !authentication.isAuthenticated()
                    || authentication instanceof AnonymousAuthenticationToken) {
                return null;
            }
            return authentication.getName();
        }

        /** An anonymous caller the security chain let through: resolved, with an empty scope. */
        static boolean isAnonymous(@Nullable SecurityContext context) {
            return context != null && context.getAuthentication() instanceof AnonymousAuthenticationToken;
        }
    }

    /** Kept apart so the servlet API is loaded only when present. */
    private static final class ServletScope {

        static @Nullable String name() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (attributes instanceof ServletRequestAttributes servlet) {
                Principal principal = servlet.getRequest().getUserPrincipal();
                return principal != null ? principal.getName() : null;
            }
            return null;
        }
    }

    /** Kept apart so WebFlux is loaded only when present. */
    private static final class ReactiveScope {

        /** The scope the reactive scope filter recorded after Spring Security ran, if any. */
        static @Nullable String name() {
            ReactiveRequest request = ReactiveRequest.current();
            return request != null ? request.scope() : null;
        }
    }
}
