package io.github.resiliencestarter.spring.http;

import io.github.resiliencestarter.context.IdempotentExecution;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.spring.idempotent.IdempotencyKeyHeader;
import io.github.resiliencestarter.spring.idempotent.RequestHeaders;
import java.io.IOException;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Opt-in per client: inside an {@code @Idempotent} execution, sends {@code Idempotency-Key} = a
 * hash of the execution's key, the call's method and path, and its place among the execution's
 * calls (rule C-4): its number within its attempt, under the place of the retried call it belongs
 * to, so calls of two retried calls never share a key. A retried attempt, or a re-execution after a lease takeover, makes the
 * same calls in the same order and so sends the same keys: the downstream replays instead of
 * acting twice. A key set explicitly on the request is left alone.
 *
 * <pre>{@code
 * RestClient inventory = builder.requestInterceptor(derivedIdempotencyKeys).build();
 * }</pre>
 */
public class DerivedIdempotencyKeyInterceptor implements ClientHttpRequestInterceptor {

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        TraceContext context = TraceContextHolder.current();
        IdempotentExecution idempotent = context.idempotentExecution();
        // getFirst, not containsKey: HttpHeaders is no longer a MultiValueMap in Spring Framework 7
        if (idempotent != null && request.getHeaders().getFirst(RequestHeaders.IDEMPOTENCY_KEY) == null) {
            String place = idempotent.nextOutboundPlace(context);
            String derived = IdempotencyKeys.sha256(idempotent.key() + '\n' + request.getMethod().name() + '\n'
                    + request.getURI().getHost() + request.getURI().getPath() + '\n' + place);
            // the draft's sf-string form: a strict server reads the key inside the quotes
            request.getHeaders().set(RequestHeaders.IDEMPOTENCY_KEY, IdempotencyKeyHeader.format(derived));
        }
        return execution.execute(request, body);
    }
}
