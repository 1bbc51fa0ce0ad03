package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.idempotent.IdempotencyScopeException;
import io.github.resiliencestarter.spring.webflux.ReactiveRequest;
import java.security.Principal;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Scopes keys by the authenticated principal: Spring Security's current authentication when
 * Spring Security is present, else the servlet request's user principal, else anonymous.
 *
 * <p>Fails closed: when the current request was authenticated by Spring Security (its security
 * context is saved on the request) but the thread running the call has no authentication, the
 * call is refused with {@link IdempotencyScopeException} rather than run in the shared anonymous
 * scope, where one user could replay another's response.
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

    private static final boolean SECURITY_WEB = SECURITY && SERVLET && ClassUtils.isPresent(
            "org.springframework.security.web.context.RequestAttributeSecurityContextRepository", LOADER);

    @Override
    public String currentScope() {
        if (SECURITY) {
            String name = SecurityScope.name(SecurityContextHolder.getContext());
            if (name != null) {
                return name;
            }
            if (SECURITY_WEB && SecuredRequest.isAuthenticated()) {
                throw new IdempotencyScopeException("The request is authenticated, but this thread ("
                        + Thread.currentThread().getName() + ") has no security context: the idempotency key "
                        + "cannot be scoped to the caller. Run the call on the request thread, or through an "
                        + "executor that carries the security context");
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
    }

    /** Kept apart so Spring Security's web module is loaded only when present. */
    private static final class SecuredRequest {

        static boolean isAuthenticated() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (!(attributes instanceof ServletRequestAttributes servlet)) {
                return false;
            }
            Object saved = servlet.getRequest().getAttribute(
                    RequestAttributeSecurityContextRepository.DEFAULT_REQUEST_ATTR_NAME);
            return saved instanceof SecurityContext context && SecurityScope.name(context) != null;
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
