package io.github.resiliencestarter.spring.gateway;

import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The client's response, recording what the gateway writes to it: the body is gathered whole
 * (an idempotent answer is stored whole), kept with the status and the allow-listed headers, and
 * written on. Streaming answers are gathered too; routes that stream should not be keyed.
 */
final class AnswerRecordingResponse extends ServerHttpResponseDecorator {

    private final ReplayHeaders replayHeaders;

    private final String name;

    private volatile @Nullable GatewayAnswer answer;

    AnswerRecordingResponse(ServerHttpResponse delegate, ReplayHeaders replayHeaders, String name) {
        super(delegate);
        this.replayHeaders = replayHeaders;
        this.name = name;
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        return DataBufferUtils.join(Flux.from(body)).map(GatewayBodies::bytes)
                .defaultIfEmpty(new byte[0])
                .flatMap(bytes -> {
                    record(bytes);
                    return super.writeWith(Mono.just(bufferFactory().wrap(bytes)));
                });
    }

    @Override
    public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
        return writeWith(Flux.from(body).concatMap(Flux::from));
    }

    @Override
    public Mono<Void> setComplete() {
        if (answer == null) {
            record(new byte[0]);
        }
        return super.setComplete();
    }

    /**
     * What was answered.
     *
     * @return the answer, or empty when nothing was written
     */
    Mono<GatewayAnswer> answer() {
        return Mono.justOrEmpty(answer);
    }

    private void record(byte[] body) {
        HttpStatusCode status = getStatusCode();
        Map<String, List<String>> kept = new LinkedHashMap<>();
        getHeaders().forEach((header, values) -> {
            if (replayHeaders.keeps(name, header)) {
                kept.put(header, List.copyOf(values));
            }
        });
        answer = GatewayAnswer.of(status == null ? 200 : status.value(), kept, body);
    }
}
