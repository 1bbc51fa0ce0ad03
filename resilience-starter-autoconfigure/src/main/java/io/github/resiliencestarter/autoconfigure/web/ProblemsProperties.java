package io.github.resiliencestarter.autoconfigure.web;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What the starter's problem details tell the client ({@code resilience.problems.*}). Switching
 * the problem-details handler off is {@code resilience.problem-details.enabled}.
 */
@ConfigurationProperties("resilience.problems")
public class ProblemsProperties {

    /**
     * Whether a problem's detail names the server's operation (class and method), as in
     * "OrderController.create did not complete within its deadline". Off by default: the client gets
     * a fixed sentence and the trace id, the log and the metrics name the operation.
     */
    private boolean includeOperation;

    public boolean isIncludeOperation() {
        return includeOperation;
    }

    public void setIncludeOperation(boolean includeOperation) {
        this.includeOperation = includeOperation;
    }
}
