package io.github.resiliencestarter.spring.aop;

import io.github.resiliencestarter.core.StartupRefusedException;
import org.jspecify.annotations.Nullable;

/**
 * An annotation that cannot work as written, found when the application starts: the description
 * names the method and what is wrong, the action says how to fix it. Spring Boot's startup report
 * shows the two apart, as for every {@link StartupRefusedException}.
 */
public class InvalidDeclarationException extends StartupRefusedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the annotation and the method
     * @param action how to fix it
     * @param cause the underlying failure, if any
     */
    public InvalidDeclarationException(String description, String action, @Nullable Throwable cause) {
        super(description, action, cause);
    }

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the annotation and the method
     * @param action how to fix it
     */
    public InvalidDeclarationException(String description, String action) {
        super(description, action);
    }
}
