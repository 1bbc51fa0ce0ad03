package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.core.ResilienceException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * The last resort for the starter's errors that no handler rendered: with the problem-details
 * handler switched off ({@code resilience.problems.enabled=false}), or an application whose
 * own resolvers pass them on, a missing key is still a 400 and a deadline a 504, on Boot's own
 * error page, not a 500. Runs after every other resolver, so the application's advice and the
 * starter's handler keep the first word.
 */
public class ResilienceStatusResolver implements HandlerExceptionResolver, Ordered {

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception failure) {
        if (!(failure instanceof ResilienceException) || response.isCommitted()) {
            return null;
        }
        ProblemDetail problem = ResilienceProblems.forError(failure, false);
        if (problem == null) {
            return null;
        }
        Long retryAfter = ResilienceProblems.retryAfterSeconds(failure);
        if (retryAfter != null) {
            response.setHeader(HttpHeaders.RETRY_AFTER, retryAfter.toString());
        }
        try {
            // Boot's error controller renders the body, the status and the fixed detail
            response.sendError(problem.getStatus(), problem.getDetail());
        } catch (IOException ex) {
            return null;
        }
        return new ModelAndView();
    }
}
