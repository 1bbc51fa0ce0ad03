package io.github.resiliencestarter.autoconfigure.observability;

import io.github.resiliencestarter.spring.actuate.ResilienceSettingsInspector;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Observability settings ({@code resilience.observability.*}). */
@ConfigurationProperties("resilience.observability")
public class ObservabilityProperties {

    /** Whether the starter records Micrometer meters (when a MeterRegistry exists). */
    private boolean metrics = true;

    /** Successful calls of a @Timeout method needed before its p99 is compared with its timeout (rule T-2). */
    private long advisorMinSamples = ResilienceSettingsInspector.DEFAULT_MIN_SAMPLES;

    public boolean isMetrics() {
        return metrics;
    }

    public void setMetrics(boolean metrics) {
        this.metrics = metrics;
    }

    public long getAdvisorMinSamples() {
        return advisorMinSamples;
    }

    public void setAdvisorMinSamples(long advisorMinSamples) {
        this.advisorMinSamples = advisorMinSamples;
    }
}
