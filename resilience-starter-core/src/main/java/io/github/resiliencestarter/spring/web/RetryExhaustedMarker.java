package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.retry.RetryOutcome;
import io.github.resiliencestarter.retry.RetrySummary;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Marks error responses whose failure already went through this service's retries (exhausted or
 * denied by the budget) with {@code X-Retry-Exhausted: true}, so the caller's {@code @Retry} does
 * not retry them again (rule R-P2). Resolves nothing itself: the other resolvers render the error.
 */
public class RetryExhaustedMarker implements HandlerExceptionResolver, Ordered {

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception error) {
        RetrySummary summary = RetrySummary.of(error);
        if (summary != null && !response.isCommitted() && (summary.outcome() == RetryOutcome.FAILED_WITH_RETRY
                || summary.outcome() == RetryOutcome.BUDGET_DENIED)) {
            response.setHeader(ResilienceHeaders.RETRY_EXHAUSTED, "true");
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
