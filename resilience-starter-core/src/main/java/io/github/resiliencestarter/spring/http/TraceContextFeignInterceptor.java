package io.github.resiliencestarter.spring.http;

import feign.RequestInterceptor;
import feign.RequestTemplate;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.time.Duration;

/**
 * The OpenFeign form of {@link TraceContextClientInterceptor}: the same headers, and nothing sent
 * when the budget is spent. Bound the wait itself with Feign's per-request options or an
 * {@code @Timeout} around the call.
 */
public class TraceContextFeignInterceptor implements RequestInterceptor {

    private final long marginMillis;

    /**
     * Creates the interceptor.
     *
     * @param budgetMargin time kept back from the budget sent downstream
     */
    public TraceContextFeignInterceptor(Duration budgetMargin) {
        this.marginMillis = budgetMargin.toMillis();
    }

    @Override
    public void apply(RequestTemplate template) {
        String operation = template.method() + " " + template.path();
        OutboundHeaders.apply(TraceContextHolder.current(), marginMillis, operation,
                name -> template.headers().containsKey(name), (name, value) -> template.header(name, value));
    }
}
