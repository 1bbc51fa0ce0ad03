package io.github.resiliencestarter.autoconfigure;

import java.util.List;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/** Whether the application authenticates its callers: a Spring Security filter chain is defined. */
public final class SecuredApplication {

    /** The filter chains of Spring Security's servlet and reactive stacks. */
    private static final List<String> SECURITY_FILTER_CHAINS = List.of(
            "org.springframework.security.web.SecurityFilterChain",
            "org.springframework.security.web.server.SecurityWebFilterChain");

    private SecuredApplication() {
    }

    /**
     * Whether a security filter chain is defined.
     *
     * @param beans the context
     * @return {@code true} when one is
     */
    public static boolean hasSecurityFilterChain(ListableBeanFactory beans) {
        ClassLoader loader = SecuredApplication.class.getClassLoader();
        for (String type : SECURITY_FILTER_CHAINS) {
            if (ClassUtils.isPresent(type, loader)
                    && beans.getBeanNamesForType(ClassUtils.resolveClassName(type, loader), true, false).length > 0) {
                return true;
            }
        }
        return false;
    }
}
