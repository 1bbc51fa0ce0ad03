package io.github.resiliencestarter.spring.actuate;

/**
 * A section of {@code /actuator/resilience} contributed by a feature that is present only with an
 * optional engine (the circuit breakers), so the endpoint itself links none of its types.
 */
public interface ResilienceReportSection {

    /**
     * The section's key in the report.
     *
     * @return the key, such as {@code circuitBreakers}
     */
    String name();

    /**
     * The section's content, serialisable as JSON.
     *
     * @return the content
     */
    Object report();
}
