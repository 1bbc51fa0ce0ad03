package io.github.resiliencestarter.spring.gateway;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import reactor.core.publisher.Flux;

/** Bodies gathered whole: a request's, read once for the payload check and forwarded as read; an answer's. */
final class GatewayBodies {

    private GatewayBodies() {
    }

    /**
     * The bytes of a gathered body, the buffer released.
     *
     * @param buffer the joined buffer
     * @return its bytes
     */
    static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    /**
     * The request, its body the bytes already read, for every subscriber (a retry reads it again).
     *
     * @param request the request
     * @param body its body
     * @return the request to forward
     */
    static ServerHttpRequest replayable(ServerHttpRequest request, byte[] body) {
        return new ServerHttpRequestDecorator(request) {
            @Override
            public Flux<DataBuffer> getBody() {
                return Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body)));
            }
        };
    }
}
