package io.github.resiliencestarter.spring.webflux;

import io.github.resiliencestarter.core.ResilienceException;
import io.github.resiliencestarter.spring.web.ResilienceExceptionHandler;
import io.github.resiliencestarter.spring.web.ResilienceProblems;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebExchange;

/**
 * The reactive counterpart of {@link ResilienceExceptionHandler}: the starter's errors as RFC 9457
 * problem details with the trace id, at the same advice order.
 */
@RestControllerAdvice
@Order(ResilienceExceptionHandler.ORDER)
public class ReactiveResilienceExceptionHandler {

    private final boolean includeOperation;

    private final String typeBase;

    /** Creates the handler; problem details name no operation of the server. */
    public ReactiveResilienceExceptionHandler() {
        this(false);
    }

    /**
     * Creates the handler.
     *
     * @param includeOperation whether problem details may name the server's operation
     */
    public ReactiveResilienceExceptionHandler(boolean includeOperation) {
        this(includeOperation, ResilienceProblems.TYPE_BASE);
    }

    /**
     * Creates the handler.
     *
     * @param includeOperation whether problem details may name the server's operation
     * @param typeBase what problem types begin with, e.g. a documentation URL ending with {@code /}
     */
    public ReactiveResilienceExceptionHandler(boolean includeOperation, String typeBase) {
        this.includeOperation = includeOperation;
        this.typeBase = typeBase;
    }

    /**
     * Renders one of the starter's errors.
     *
     * @param error the error
     * @param exchange the exchange
     * @return the problem response
     * @throws ResilienceException the error itself when it has no problem mapping
     */
    @ExceptionHandler(ResilienceException.class)
    public ResponseEntity<ProblemDetail> handle(ResilienceException error, ServerWebExchange exchange) {
        ResponseEntity<ProblemDetail> response = ResilienceProblems.response(error,
                exchange.getRequest().getPath().value(), includeOperation, typeBase);
        if (response == null) {
            throw error;
        }
        return response;
    }
}
