package io.github.resiliencestarter.spring.http;

import io.github.resiliencestarter.context.BudgetMargin;
import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.timeout.ConnectTimeoutException;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.ReadTimeoutException;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutGuard;
import io.github.resiliencestarter.timeout.TimeoutKind;
import io.github.resiliencestarter.timeout.TimeoutKinds;
import io.github.resiliencestarter.timeout.TimeoutMode;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
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
 * (rule T-P3: no ghost requests). While the request runs, the calling thread is interrupted at the
 * deadline, which ends the wait of interruptible clients (the JDK HttpClient, Boot's default);
 * failures come out as {@link ConnectTimeoutException}, {@link ReadTimeoutException} or
 * {@link DeadlineExceededException} (rule T-4).
 */
public class TraceContextClientInterceptor implements ClientHttpRequestInterceptor {

    private static final int GATEWAY_TIMEOUT = 504;

    private final long marginMillis;

    private final @Nullable TimeoutRuntime runtime;

    /**
     * Creates the interceptor.
     *
     * @param budgetMargin time kept back from the budget sent downstream
     * @param runtime the timer that bounds a call by the remaining budget, or {@code null} to only
     *     send headers
     */
    public TraceContextClientInterceptor(Duration budgetMargin, @Nullable TimeoutRuntime runtime) {
        this.marginMillis = BudgetMargin.checked(budgetMargin).toMillis();
        this.runtime = runtime;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        TraceContext context = TraceContextHolder.current();
        HttpHeaders headers = request.getHeaders();
        String operation = request.getMethod() + " " + request.getURI().getHost() + request.getURI().getPath();
        OutboundHeaders.apply(context, marginMillis, operation, name -> headers.getFirst(name) != null, headers::set);
        Deadline deadline = context.deadline();
        try {
            if (deadline == null || runtime == null) {
                return execution.execute(request, body);
            }
            // never wait on the network past the deadline, whatever the client's own read timeout
            TimeoutConfig bound = TimeoutConfig.custom().timeout(Duration.ofNanos(Math.max(1, deadline.remainingNanos())))
                    .mode(TimeoutMode.INTERRUPT).build();
            ClientHttpResponse response = TimeoutGuard.of(operation, bound, runtime)
                    .call(() -> execution.execute(request, body));
            if (response.getStatusCode().value() == GATEWAY_TIMEOUT
                    && deadline.remainingNanos() <= TimeUnit.MILLISECONDS.toNanos(marginMillis)) {
                // the callee spent the budget we granted it: for us, too, the deadline is reached
                response.close();
                throw new DeadlineExceededException(operation, DeadlineExceededException.Reason.TIMED_OUT, null, null);
            }
            return response;
        } catch (IOException ex) {
            throw classify(ex, operation, deadline);
        } catch (RuntimeException | Error ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new IOException(ex);
        }
    }

    /** Says which timeout fired (T-4): the deadline, the connect timeout or the read timeout. */
    private static IOException classify(IOException error, String operation, @Nullable Deadline deadline) {
        if (deadline != null && deadline.isExpired()) {
            throw new DeadlineExceededException(operation, DeadlineExceededException.Reason.TIMED_OUT, null, error);
        }
        TimeoutKind kind = TimeoutKinds.of(error);
        if (kind == TimeoutKind.CONNECT) {
            throw new ConnectTimeoutException(operation + ": connect timed out", error);
        }
        if (kind == TimeoutKind.READ) {
            throw new ReadTimeoutException(operation + ": read timed out", error);
        }
        return error;
    }
}
