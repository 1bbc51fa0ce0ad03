package io.github.resiliencestarter.spring.webflux;

import java.security.Principal;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.util.ClassUtils;

/** Tells an anonymous principal apart, with Spring Security when it is present. */
final class SecurityPrincipals {

    private static final boolean SECURITY = ClassUtils.isPresent(
            "org.springframework.security.core.Authentication", SecurityPrincipals.class.getClassLoader());

    private SecurityPrincipals() {
    }

    static boolean isAnonymous(Principal principal) {
        return SECURITY && Security.isAnonymous(principal);
    }

    /** Kept apart so Spring Security is loaded only when present. */
    private static final class Security {

        static boolean isAnonymous(Principal principal) {
            return principal instanceof Authentication authentication
                    && (!authentication.isAuthenticated() || authentication instanceof AnonymousAuthenticationToken);
        }
    }
}
