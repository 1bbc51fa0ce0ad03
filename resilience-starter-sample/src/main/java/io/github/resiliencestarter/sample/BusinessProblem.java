package io.github.resiliencestarter.sample;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A business rule said no: rendered by Spring MVC as an RFC 9457 problem with its own status.
 * Being a 4xx {@code ErrorResponse}, it is never retried.
 */
public class BusinessProblem extends ErrorResponseException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the problem.
     *
     * @param status the HTTP status (4xx)
     * @param type a short type name, such as {@code order-not-found}
     * @param detail what happened
     */
    public BusinessProblem(HttpStatus status, String type, String detail) {
        super(status, problem(status, type, detail), null);
    }

    private static ProblemDetail problem(HttpStatus status, String type, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create("urn:resilience-sample:problem:" + type));
        return problem;
    }
}
