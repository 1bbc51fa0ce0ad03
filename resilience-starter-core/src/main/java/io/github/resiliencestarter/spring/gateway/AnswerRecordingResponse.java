package io.github.resiliencestarter.spring.gateway;

import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import java.util.ArrayList;
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
 * The client's response, recording what the gateway writes to it: the body is gathered up to the
 * limit (an idempotent answer is stored whole), kept with the status and the allow-listed headers,
 * and written on. A body that passes the limit is written on as it comes, what was gathered first,
 * and recorded only as {@linkplain GatewayAnswer#oversized too long}: the gateway never holds more
 * than the limit of one answer.
 */
final class AnswerRecordingResponse extends ServerHttpResponseDecorator {

    private final ReplayHeaders replayHeaders;

    private final String name;

    private final long maxBytes;

    private volatile @Nullable GatewayAnswer answer;

    AnswerRecordingResponse(ServerHttpResponse delegate, ReplayHeaders replayHeaders, String name, long maxBytes) {
        super(delegate);
        this.replayHeaders = replayHeaders;
        this.name = name;
        this.maxBytes = maxBytes;
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        return super.writeWith(Flux.defer(() -> new Gathering().of(Flux.from(body))));
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

    private void recordOversized() {
        HttpStatusCode status = getStatusCode();
        answer = GatewayAnswer.oversized(status == null ? 200 : status.value());
    }

    /** One write's body: held until it ends or passes the limit. */
    private final class Gathering {

        private final List<DataBuffer> held = new ArrayList<>();

        private long size;

        private boolean passingThrough;

        Flux<DataBuffer> of(Flux<? extends DataBuffer> body) {
            return body.<DataBuffer>concatMap(this::take).concatWith(Flux.defer(this::end))
                    .doOnDiscard(DataBuffer.class, DataBufferUtils::release).doFinally(signal -> releaseHeld());
        }

        private Flux<DataBuffer> take(DataBuffer buffer) {
            if (passingThrough) {
                return Flux.just(buffer);
            }
            size += buffer.readableByteCount();
            held.add(buffer);
            if (size <= maxBytes) {
                return Flux.empty();
            }
            passingThrough = true;
            recordOversized();
            List<DataBuffer> gathered = new ArrayList<>(held);
            held.clear();
            return Flux.fromIterable(gathered);
        }

        private Flux<DataBuffer> end() {
            if (passingThrough) {
                return Flux.empty();
            }
            byte[] bytes = new byte[(int) size];
            int at = 0;
            for (DataBuffer buffer : held) {
                int length = buffer.readableByteCount();
                buffer.read(bytes, at, length);
                at += length;
            }
            releaseHeld();
            record(bytes);
            return Flux.just(bufferFactory().wrap(bytes));
        }

        private void releaseHeld() {
            held.forEach(DataBufferUtils::release);
            held.clear();
        }
    }
}
