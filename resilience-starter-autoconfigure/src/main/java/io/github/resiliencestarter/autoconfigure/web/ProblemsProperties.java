package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.spring.web.ResilienceProblems;
import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The starter's problem details: whether it renders them, and what they tell the client ({@code resilience.problems.*}). */
@ConfigurationProperties("resilience.problems")
public class ProblemsProperties {

    /**
     * Whether the starter renders its errors as RFC 9457 problem details, and puts the trace id
     * (and a validation problem's invalid fields) on every other problem.
     */
    private boolean enabled = true;

    /**
     * Whether a problem's detail names the server's operation (class and method), as in
     * "OrderController.create did not complete within its deadline". Off by default: the client gets
     * a fixed sentence and the trace id, the log and the metrics name the operation.
     */
    private boolean includeOperation;

    /**
     * What problem types begin with: an absolute URI. The default names them
     * (urn:resilience-starter:problem:); a documentation URL ending with a slash makes each type a
     * link to its page, as RFC 9457 suggests (https://docs.example.com/problems/idempotency-key-invalid).
     */
    private String typeBase = ResilienceProblems.TYPE_BASE;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getTypeBase() {
        return typeBase;
    }

    public void setTypeBase(String typeBase) {
        // an absolute URI, or the types it makes are not URIs at all
        if (!URI.create(typeBase).isAbsolute()) {
            throw new IllegalArgumentException("resilience.problems.type-base must be an absolute URI, was " + typeBase);
        }
        this.typeBase = typeBase;
    }

    public boolean isIncludeOperation() {
        return includeOperation;
    }

    public void setIncludeOperation(boolean includeOperation) {
        this.includeOperation = includeOperation;
    }
}
