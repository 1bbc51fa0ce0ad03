package io.github.resiliencestarter.spring.http;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * The WebClient form of {@link TraceContextClientInterceptor}: the same headers, nothing sent when
 * the budget is spent, and the exchange cut off at the deadline. The trace context is read when
 * the request is subscribed, which is the calling thread for the usual {@code block()} use.
 */
public class TraceContextExchangeFilter implements ExchangeFilterFunction {

    private final long marginMillis;

    /**
     * Creates the filter.
     *
     * @param budgetMargin time kept back from the budget sent downstream
     */
    public TraceContextExchangeFilter(Duration budgetMargin) {
        this.marginMillis = budgetMargin.toMillis();
    }

    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        TraceContext context = TraceContextHolder.current();
        String operation = request.method() + " " + request.url().getHost() + request.url().getPath();
        ClientRequest.Builder builder = ClientRequest.from(request);
        try {
            OutboundHeaders.apply(context, marginMillis, operation, name -> request.headers().getFirst(name) != null,
                    (name, value) -> builder.headers(headers -> headers.set(name, value)));
        } catch (DeadlineExceededException spent) {
            return Mono.error(spent);
        }
        Mono<ClientResponse> exchange = next.exchange(builder.build());
        Deadline deadline = context.deadline();
        if (deadline == null) {
            return exchange;
        }
        return exchange.timeout(Duration.ofNanos(Math.max(1, deadline.remainingNanos()))).onErrorMap(
                TimeoutException.class,
                timeout -> new DeadlineExceededException(operation, DeadlineExceededException.Reason.TIMED_OUT, null,
                        timeout));
    }
}
