package io.github.resiliencestarter.spring.http;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.io.IOException;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Sends the trace context with every {@code RestTemplate} and {@code RestClient} request:
 * {@code X-Trace-Id}, {@code X-Timeout-Budget-Ms} (the remaining budget minus a safety margin, so
 * the callee gives up before the caller does) and {@code X-Retry-Attempt}. When no budget is left
 * beyond the margin, nothing is sent and a {@link DeadlineExceededException} is thrown at once
 * (rule T-P3: no ghost requests).
 */
public class TraceContextClientInterceptor implements ClientHttpRequestInterceptor {

    /** Default time kept back from the budget sent downstream, for the network and the answer. */
    public static final Duration DEFAULT_BUDGET_MARGIN = Duration.ofMillis(20);

    private final long marginMillis;

    /**
     * Creates the interceptor.
     *
     * @param budgetMargin time kept back from the budget sent downstream
     */
    public TraceContextClientInterceptor(Duration budgetMargin) {
        this.marginMillis = budgetMargin.toMillis();
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        TraceContext context = TraceContextHolder.current();
        HttpHeaders headers = request.getHeaders();
        if (context.traceId() != null && !headers.containsKey(ResilienceHeaders.TRACE_ID)) {
            headers.set(ResilienceHeaders.TRACE_ID, context.traceId());
        }
        if (context.attempt() > 0) {
            headers.set(ResilienceHeaders.RETRY_ATTEMPT, Integer.toString(context.attempt()));
        }
        Deadline deadline = context.deadline();
        if (deadline != null) {
            long budget = deadline.remainingMillis() - marginMillis;
            if (budget <= 0) {
                throw DeadlineExceededException.budgetSpent(request.getMethod() + " " + request.getURI().getHost()
                        + request.getURI().getPath());
            }
            headers.set(ResilienceHeaders.TIMEOUT_BUDGET_MS, Long.toString(budget));
        }
        return execution.execute(request, body);
    }
}
