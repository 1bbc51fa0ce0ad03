package io.github.resiliencestarter.spring.aop;

import org.jspecify.annotations.Nullable;

/**
 * An annotation that cannot work as written, found when the application starts: the description
 * names the method and what is wrong, the action says how to fix it. Spring Boot's startup report
 * shows the two apart (the starter registers a failure analyzer for this type).
 */
public class InvalidDeclarationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;

    private final String action;

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the annotation and the method
     * @param action how to fix it
     * @param cause the underlying failure, if any
     */
    public InvalidDeclarationException(String description, String action, @Nullable Throwable cause) {
        super(description + " " + action, cause);
        this.description = description;
        this.action = action;
    }

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the annotation and the method
     * @param action how to fix it
     */
    public InvalidDeclarationException(String description, String action) {
        this(description, action, null);
    }

    /**
     * What is wrong.
     *
     * @return a sentence naming the annotation and the method
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
