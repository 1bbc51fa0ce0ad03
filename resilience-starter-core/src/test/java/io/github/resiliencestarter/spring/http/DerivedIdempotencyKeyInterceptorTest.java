package io.github.resiliencestarter.spring.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.retry.Retrier;
import io.github.resiliencestarter.retry.RetryConfig;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.spring.idempotent.RequestHeaders;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;

/** Rule C-4: downstream idempotency keys derived from the execution's key. */
class DerivedIdempotencyKeyInterceptorTest {

    private final DerivedIdempotencyKeyInterceptor interceptor = new DerivedIdempotencyKeyInterceptor();

    private final List<String> sent = new ArrayList<>();

    private final ClientHttpRequestExecution recording = (request, body) -> {
        sent.add(request.getHeaders().getFirst(RequestHeaders.IDEMPOTENCY_KEY));
        return new MockClientHttpResponse(new byte[0], HttpStatus.OK);
    };

    private void call(HttpMethod method, String url) throws Exception {
        interceptor.intercept(new MockClientHttpRequest(method, URI.create(url)), new byte[0], recording);
    }

    @Test
    void C4_derivedKeysAreIdenticalAcrossARetriedAttemptAndAReExecution() throws Throwable {
        IdempotentExecutor executor = IdempotentExecutor.builder(new InMemoryIdempotencyStore(),
                new Fastjson2ResponseCodec()).build();
        IdempotentCall order = new IdempotentCall("ORDER_CREATE", "idem:ORDER_CREATE::A-1", "fp", String.class,
                IdempotencyConfig.ofDefaults());
        Retrier retrier = Retrier.of("Orders.create", RetryConfig.custom()
                .backOff(new FixedBackOff(Duration.ofMillis(1))).build());

        // execution 1: attempt 1 calls twice and fails (retryable), attempt 2 calls twice and fails for good
        assertThatThrownBy(() -> executor.execute(order, () -> retrier.call(() -> {
            call(HttpMethod.POST, "http://inventory/reserve");
            call(HttpMethod.POST, "http://payments/charge");
            throw new RetryableException("DOWN", "after the calls");
        }))).isInstanceOf(RetryableException.class);
        // execution 2 (the key was released): the same method, so the same retried call and the same two calls
        executor.execute(order, () -> retrier.call(() -> {
            call(HttpMethod.POST, "http://inventory/reserve");
            call(HttpMethod.POST, "http://payments/charge");
            return "done";
        }));

        assertThat(sent).hasSize(3 * 2 + 2).doesNotContainNull();
        for (int i = 0; i < sent.size(); i += 2) {
            assertThat(sent.get(i)).as("first call of run %d", i / 2).isEqualTo(sent.get(0));
            assertThat(sent.get(i + 1)).as("second call of run %d", i / 2).isEqualTo(sent.get(1));
        }
        // the draft's sf-string form: a SHA-256 in quotes
        assertThat(sent.get(0)).isNotEqualTo(sent.get(1)).matches("\"[0-9a-f]{64}\"");
    }

    @Test
    void outsideAnIdempotentExecutionNoKeyIsSent() throws Exception {
        call(HttpMethod.GET, "http://inventory/stock");
        assertThat(sent).containsExactly((String) null);
    }

    @Test
    void aKeySetExplicitlyOnTheRequestIsLeftAlone() throws Throwable {
        IdempotentExecutor executor = IdempotentExecutor.builder(new InMemoryIdempotencyStore(),
                new Fastjson2ResponseCodec()).build();
        IdempotentCall order = new IdempotentCall("ORDER_CREATE", "idem:ORDER_CREATE::A-2", "fp", String.class,
                IdempotencyConfig.ofDefaults());
        executor.execute(order, () -> {
            MockClientHttpRequest request = new MockClientHttpRequest(HttpMethod.POST, URI.create("http://pay/charge"));
            request.getHeaders().set(RequestHeaders.IDEMPOTENCY_KEY, "chosen-by-the-caller");
            interceptor.intercept(request, new byte[0], recording);
            call(HttpMethod.POST, "http://pay/charge");
            return "done";
        });

        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).isEqualTo("chosen-by-the-caller");
        assertThat(sent.get(1)).isNotNull().matches("\"[0-9a-f]{64}\"");
    }
}
