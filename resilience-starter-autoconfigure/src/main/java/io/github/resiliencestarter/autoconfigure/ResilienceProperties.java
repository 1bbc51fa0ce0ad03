package io.github.resiliencestarter.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings that apply to the whole starter ({@code resilience.*}).
 */
@ConfigurationProperties(ResilienceProperties.PREFIX)
public class ResilienceProperties {

    /** Prefix of every property of the starter. */
    public static final String PREFIX = "resilience";

    /** Whether the starter is active at all; false switches every part of it off. */
    private boolean enabled = true;

    private final ProblemDetails problemDetails = new ProblemDetails();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public ProblemDetails getProblemDetails() {
        return problemDetails;
    }

    /** Rendering of the starter's errors as RFC 9457 problem details. */
    public static class ProblemDetails {

        /** Whether the starter's exception handler renders its errors as problem details. */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
