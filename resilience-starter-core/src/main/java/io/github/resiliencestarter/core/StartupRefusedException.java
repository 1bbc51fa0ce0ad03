package io.github.resiliencestarter.core;

import org.jspecify.annotations.Nullable;

/**
 * The application cannot start as it is set up: what is wrong and what to do about it, kept apart
 * so that Spring Boot's startup report shows them under "Description" and "Action" (the starter
 * registers a failure analyzer for this type and its subclasses).
 */
public class StartupRefusedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;

    private final String action;

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the setting, bean or annotation
     * @param action how to fix it
     * @param cause the underlying failure, if any
     */
    public StartupRefusedException(String description, String action, @Nullable Throwable cause) {
        super(description + " " + action, cause);
        this.description = description;
        this.action = action;
    }

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the setting, bean or annotation
     * @param action how to fix it
     */
    public StartupRefusedException(String description, String action) {
        this(description, action, null);
    }

    /**
     * What is wrong.
     *
     * @return one or more sentences
     */
    public String description() {
        return description;
    }

    /**
     * How to fix it.
     *
     * @return one or more sentences
     */
    public String action() {
        return action;
    }
}
