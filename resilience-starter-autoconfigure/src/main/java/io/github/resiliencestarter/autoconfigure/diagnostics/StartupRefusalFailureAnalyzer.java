package io.github.resiliencestarter.autoconfigure.diagnostics;

import io.github.resiliencestarter.core.StartupRefusedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports every start the starter refuses ({@link StartupRefusedException}: an annotation that
 * cannot work as written, chaos in a refused profile, a store without its client, a missing
 * idempotency table) the way Spring Boot reports its own: what is wrong, then what to do.
 */
public class StartupRefusalFailureAnalyzer extends AbstractFailureAnalyzer<StartupRefusedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartupRefusedException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
