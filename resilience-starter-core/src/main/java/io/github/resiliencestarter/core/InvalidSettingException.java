package io.github.resiliencestarter.core;

import org.jspecify.annotations.Nullable;

/**
 * A setting the engine refuses, naming the setting and why, so that a configuration layer can
 * report it against the property the value came from (Spring Boot reports it as
 * {@code resilience.timeout.duration}, not as an engine parameter).
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;

    private final String reason;

    /**
     * Creates the exception.
     *
     * @param setting the engine's name of the setting, in camel case (e.g. {@code maxDelay})
     * @param reason what the value must be, e.g. "must be positive"
     * @param value the refused value, {@code null} when it was missing
     */
    public InvalidSettingException(String setting, String reason, @Nullable Object value) {
        super(setting + " " + reason + " but was " + value);
        this.setting = setting;
        this.reason = reason;
    }

    /**
     * The refused setting.
     *
     * @return the engine's name of it, in camel case
     */
    public String setting() {
        return setting;
    }

    /**
     * What a valid value is.
     *
     * @return e.g. "must be positive"
     */
    public String reason() {
        return reason;
    }
}
