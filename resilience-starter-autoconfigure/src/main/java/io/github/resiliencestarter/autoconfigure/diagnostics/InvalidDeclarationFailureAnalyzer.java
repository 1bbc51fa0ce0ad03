package io.github.resiliencestarter.autoconfigure.diagnostics;

import io.github.resiliencestarter.spring.aop.InvalidDeclarationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an annotation that cannot work as written ({@link InvalidDeclarationException}) the way
 * Spring Boot reports its own startup failures: what is wrong with which method, then what to do.
 */
public class InvalidDeclarationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidDeclarationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidDeclarationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
