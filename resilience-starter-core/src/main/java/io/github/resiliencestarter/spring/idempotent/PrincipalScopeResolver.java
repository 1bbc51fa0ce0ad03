package io.github.resiliencestarter.spring.idempotent;

import java.security.Principal;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Scopes keys by the authenticated principal: Spring Security's current authentication when
 * Spring Security is present, else the servlet request's user principal, else anonymous.
 */
public class PrincipalScopeResolver implements IdempotencyScopeResolver {

    private static final ClassLoader LOADER = PrincipalScopeResolver.class.getClassLoader();

    private static final boolean SECURITY = ClassUtils.isPresent(
            "org.springframework.security.core.context.SecurityContextHolder", LOADER);

    private static final boolean SERVLET = ClassUtils.isPresent(
            "org.springframework.web.context.request.ServletRequestAttributes", LOADER)
            && ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", LOADER);

    @Override
    public String currentScope() {
        if (SECURITY) {
            String name = SecurityScope.name();
            if (name != null) {
                return name;
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

        static String name() {
            Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
            if (authentication == null || !authentication.isAuthenticated()
                    || authentication instanceof AnonymousAuthenticationToken) {
                return null;
            }
            return authentication.getName();
        }
    }

    /** Kept apart so the servlet API is loaded only when present. */
    private static final class ServletScope {

        static String name() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            if (attributes instanceof ServletRequestAttributes servlet) {
                Principal principal = servlet.getRequest().getUserPrincipal();
                return principal != null ? principal.getName() : null;
            }
            return null;
        }
    }
}
