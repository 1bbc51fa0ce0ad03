package io.github.resiliencestarter.sample.inventory;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The inventory answered with a server error: a 502 problem for the order's client, instead of a
 * 500. Still a 5xx, so the retry and the circuit breaker treat it as the inventory's failure.
 */
public class InventoryUnavailable extends ErrorResponseException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the problem.
     *
     * @param cause the inventory's answer
     */
    public InventoryUnavailable(Throwable cause) {
        super(HttpStatus.BAD_GATEWAY, problem(), cause);
    }

    private static ProblemDetail problem() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY,
                "The inventory failed to answer; the order was not created, try again later");
        problem.setType(URI.create("urn:resilience-sample:problem:inventory-unavailable"));
        return problem;
    }
}
