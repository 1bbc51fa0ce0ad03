package io.github.resiliencestarter.spring.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** What the gateway holds of an answer while it records it: never more than the limit. */
class AnswerRecordingResponseTest {

    private static final int LIMIT = 1_000;

    private final MockServerHttpResponse client = new MockServerHttpResponse();

    /** Bytes that reached the client so far. */
    private final AtomicLong delivered = new AtomicLong();

    private final AnswerRecordingResponse recording = new AnswerRecordingResponse(client, ReplayHeaders.defaults(),
            "orders", LIMIT);

    AnswerRecordingResponseTest() {
        client.setWriteHandler(body -> body.doOnNext(buffer -> delivered.addAndGet(buffer.readableByteCount()))
                .then());
        client.setStatusCode(HttpStatus.CREATED);
    }

    private static DataBuffer chunk(int bytes) {
        return DefaultDataBufferFactory.sharedInstance.wrap("z".repeat(bytes).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anAnswerWithinTheLimitIsHeldWholeRecordedAndWrittenOnAtItsEnd() {
        Sinks.Many<DataBuffer> upstream = Sinks.many().unicast().onBackpressureBuffer();
        Mono<Void> written = recording.writeWith(upstream.asFlux());
        written.subscribe();

        upstream.tryEmitNext(chunk(400));
        upstream.tryEmitNext(chunk(400));
        assertThat(delivered).as("held until the answer ends").hasValue(0);
        upstream.tryEmitComplete();

        assertThat(delivered).hasValue(800);
        GatewayAnswer answer = recording.answer().block(Duration.ofSeconds(5));
        assertThat(answer.oversized()).isFalse();
        assertThat(answer.status()).isEqualTo(201);
        assertThat(answer.bodyBytes()).hasSize(800);
    }

    @Test
    void anAnswerPastTheLimitFlowsToTheClientBeforeItEndsAndIsRecordedAsTooLongToKeep() {
        Sinks.Many<DataBuffer> upstream = Sinks.many().unicast().onBackpressureBuffer();
        recording.writeWith(upstream.asFlux()).subscribe();

        upstream.tryEmitNext(chunk(600));
        upstream.tryEmitNext(chunk(600));
        // past the limit: what was held goes on, and so does every later chunk, the answer still open
        assertThat(delivered).hasValue(1_200);
        upstream.tryEmitNext(chunk(600));
        assertThat(delivered).hasValue(1_800);
        upstream.tryEmitComplete();

        GatewayAnswer answer = recording.answer().block(Duration.ofSeconds(5));
        assertThat(answer.oversized()).isTrue();
        assertThat(answer.status()).isEqualTo(201);
    }
}
