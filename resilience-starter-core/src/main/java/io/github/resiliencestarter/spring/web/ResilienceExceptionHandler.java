package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.core.ResilienceException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * Renders the starter's errors as RFC 9457 problem details with the trace id. Ordered just before
 * the default advice order, so it beats a catch-all advice while a user's own higher-precedence
 * advice can still take over; switched off with {@code resilience.problems.enabled=false}.
 */
@RestControllerAdvice
@Order(ResilienceExceptionHandler.ORDER)
public class ResilienceExceptionHandler {

    /** This advice's order. */
    public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

    private final boolean includeOperation;

    private final String typeBase;

    /** Creates the handler; problem details name no operation of the server. */
    public ResilienceExceptionHandler() {
        this(false);
    }

    /**
     * Creates the handler.
     *
     * @param includeOperation whether problem details may name the server's operation
     */
    public ResilienceExceptionHandler(boolean includeOperation) {
        this(includeOperation, ResilienceProblems.TYPE_BASE);
    }

    /**
     * Creates the handler.
     *
     * @param includeOperation whether problem details may name the server's operation
     * @param typeBase what problem types begin with, e.g. a documentation URL ending with {@code /}
     */
    public ResilienceExceptionHandler(boolean includeOperation, String typeBase) {
        this.includeOperation = includeOperation;
        this.typeBase = typeBase;
    }

    /**
     * Renders one of the starter's errors.
     *
     * @param error the error
     * @param request the request
     * @return the problem response
     * @throws ResilienceException the error itself when it has no problem mapping
     */
    @ExceptionHandler(ResilienceException.class)
    public ResponseEntity<ProblemDetail> handle(ResilienceException error, NativeWebRequest request) {
        ResponseEntity<ProblemDetail> response = ResilienceProblems.response(error,
                request instanceof ServletWebRequest servlet ? servlet.getRequest().getRequestURI() : null,
                includeOperation, typeBase);
        if (response == null) {
            throw error;
        }
        return response;
    }
}
