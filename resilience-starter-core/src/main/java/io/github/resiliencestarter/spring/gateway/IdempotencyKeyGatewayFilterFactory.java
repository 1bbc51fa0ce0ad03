package io.github.resiliencestarter.spring.gateway;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.core.Causes;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.IdempotentPayloadTooLargeException;
import io.github.resiliencestarter.idempotent.IdempotentResult;
import io.github.resiliencestarter.idempotent.KeptAnswers;
import io.github.resiliencestarter.spring.idempotent.IdempotencyKeyHeader;
import io.github.resiliencestarter.spring.idempotent.IdempotencyScopeResolver;
import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import io.github.resiliencestarter.spring.idempotent.RequestHeaders;
import io.github.resiliencestarter.spring.web.ResilienceProblems;
import io.github.resiliencestarter.spring.webflux.ReactiveProblemWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * The {@code IdempotencyKey} route filter: a request that changes something ({@code POST},
 * {@code PUT}, {@code PATCH}, {@code DELETE}) with an {@code Idempotency-Key} is forwarded once;
 * the answer is stored, and a duplicate is answered from the store with
 * {@code Idempotent-Replayed: true}, never forwarded. The same store, key rules, caller scope,
 * payload check and problems as {@code @Idempotent}: a malformed or missing key is 400, the key
 * with another payload 422, the key still in progress 409 (or the duplicate waits, as
 * {@code in-progress} says), the store down 503. The payload is the method, the path and query,
 * and the body. The answer is kept as {@code @Idempotent} keeps one ({@link KeptAnswers}): a 5xx,
 * 401, 403, 408, 409, 425 or 429 releases the key, so the client's retry is forwarded again; other
 * answers are stored with their allow-listed headers. A keyed request's body is buffered up to
 * {@code maxRequestBytes} (413 beyond, nothing forwarded); an answer longer than the response limit
 * goes to the client as it comes and is recorded as too long to keep (a duplicate gets 409, never a
 * second forward). The key is forwarded too, so the service can settle the gateway's own retries.
 */
public class IdempotencyKeyGatewayFilterFactory
        extends AbstractGatewayFilterFactory<IdempotencyKeyGatewayFilterFactory.Config> {

    /** Runs where the gateway's response writer sees the recording response. */
    public static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;

    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.TRACE);

    private final Supplier<IdempotentExecutor> executor;

    private final IdempotencyConfig defaults;

    private final IdempotencyScopeResolver scopes;

    private final ReplayHeaders replayHeaders;

    private final String keyHeader;

    private final String problemTypeBase;

    private final int maxRequestBytes;

    /**
     * Creates the factory.
     *
     * @param executor the executor on the configured store, looked up on first use
     * @param defaults the idempotency settings ({@code resilience.idempotent.*}); its
     *     {@code maxResponseBytes} bounds what is held of an answer
     * @param scopes names the caller's scope
     * @param replayHeaders which answer headers are stored and replayed
     * @param keyHeader the request header carrying the key
     * @param problemTypeBase what problem types begin with
     * @param maxRequestBytes the most of a keyed request's body that is buffered (413 beyond)
     */
    public IdempotencyKeyGatewayFilterFactory(Supplier<IdempotentExecutor> executor, IdempotencyConfig defaults,
            IdempotencyScopeResolver scopes, ReplayHeaders replayHeaders, String keyHeader, String problemTypeBase,
            int maxRequestBytes) {
        super(Config.class);
        if (maxRequestBytes < 0) {
            throw new InvalidSettingException("maxRequestBytes", "must not be negative", maxRequestBytes);
        }
        this.executor = executor;
        this.defaults = defaults;
        this.scopes = scopes;
        this.replayHeaders = replayHeaders;
        this.keyHeader = keyHeader;
        this.problemTypeBase = problemTypeBase;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("name", "required");
    }

    @Override
    public GatewayFilter apply(Config config) {
        return new OrderedGatewayFilter((exchange, chain) -> filter(exchange, chain, config), ORDER);
    }

    private Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain, Config config) {
        ServerHttpRequest request = exchange.getRequest();
        if (SAFE.contains(request.getMethod())) {
            return chain.filter(exchange);
        }
        String key;
        try {
            key = IdempotencyKeyHeader.parse(keyHeader, RequestHeaders.values(request.getHeaders(), keyHeader));
            if (key == null && config.isRequired()) {
                throw new IdempotencyKeyException("The idempotency key is missing: send the " + keyHeader + " header");
            }
        } catch (IdempotencyKeyException invalid) {
            return problem(exchange, invalid);
        }
        if (key == null) {
            return chain.filter(exchange);
        }
        if (request.getHeaders().getContentLength() > maxRequestBytes) {
            return problem(exchange, new IdempotentPayloadTooLargeException(maxRequestBytes));
        }
        String name = config.getName() != null ? config.getName() : routeId(exchange);
        return DataBufferUtils.join(request.getBody(), maxRequestBytes)
                .onErrorMap(DataBufferLimitException.class, tooLarge -> new IdempotentPayloadTooLargeException(
                        maxRequestBytes))
                .map(GatewayBodies::bytes).defaultIfEmpty(new byte[0])
                .flatMap(body -> Mono.deferContextual(reactor -> once(exchange, chain, name, key, body, reactor)))
                .onErrorResume(failure -> failed(exchange, Causes.unwrapAsync(failure)));
    }

    private Mono<Void> once(ServerWebExchange exchange, GatewayFilterChain chain, String name, String key, byte[] body,
            ContextView reactor) {
        ServerHttpRequest request = exchange.getRequest();
        TraceContext context = GatewayTraceContexts.of(reactor);
        AnswerRecordingResponse recording = new AnswerRecordingResponse(exchange.getResponse(), replayHeaders, name,
                defaults.maxResponseBytes());
        ServerWebExchange forwarded = exchange.mutate().request(GatewayBodies.replayable(request, body))
                .response(recording).build();
        Runnable markReplayed = () -> exchange.getResponse().getHeaders().set(RequestHeaders.REPLAYED, "true");
        // the claim and the waits touch the store: off the event loop, in the request's trace context
        return Mono.fromFuture(() -> {
            try (TraceScope scope = TraceContextHolder.open(context)) {
                IdempotentCall call = IdempotentCall.builder(name, defaults).key(key).scope(scopes.currentScope())
                        // the body's digest, not the body: no encoded copy of up to max-request-bytes
                        .fingerprintOf(List.of(String.valueOf(request.getMethod()), request.getURI().getRawPath()
                                + (request.getURI().getRawQuery() == null ? "" : "?" + request.getURI().getRawQuery()),
                                IdempotencyKeys.sha256(body)))
                        .returnType(GatewayAnswer.class).build();
                CompletableFuture<IdempotentResult<GatewayAnswer>> result = executor.get().executeAsync(call,
                        () -> forward(chain, forwarded, recording, reactor), markReplayed);
                return result;
            }
        }).subscribeOn(Schedulers.boundedElastic())
                .flatMap(result -> result.replayed() ? replay(exchange, result.value()) : Mono.empty());
    }

    private static CompletableFuture<GatewayAnswer> forward(GatewayFilterChain chain, ServerWebExchange forwarded,
            AnswerRecordingResponse recording, ContextView reactor) {
        return chain.filter(forwarded).then(Mono.defer(recording::answer))
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("The route answered nothing")))
                .flatMap(answer -> answer.isKept() ? Mono.just(answer) : Mono.error(new AnswerNotKept()))
                .contextWrite(reactor).toFuture();
    }

    private static Mono<Void> replay(ServerWebExchange exchange, GatewayAnswer answer) {
        exchange.getResponse().setStatusCode(HttpStatus.valueOf(answer.status()));
        // addAll(String, List) links on Framework 6 and 7 alike; put(String, List) does not
        answer.headers().forEach((header, values) -> exchange.getResponse().getHeaders().addAll(header, values));
        byte[] body = answer.bodyBytes();
        DataBuffer buffer = exchange.getResponse().bufferFactory().wrap(body);
        return exchange.getResponse().writeWith(Mono.just(buffer));
    }

    private Mono<Void> failed(ServerWebExchange exchange, Throwable failure) {
        if (failure instanceof AnswerNotKept) {
            // the service's own answer went to the client as it was; the key is released
            return Mono.empty();
        }
        return exchange.getResponse().isCommitted() ? Mono.error(failure) : problem(exchange, failure);
    }

    private Mono<Void> problem(ServerWebExchange exchange, Throwable failure) {
        ResponseEntity<ProblemDetail> response = ResilienceProblems.response(failure,
                exchange.getRequest().getPath().value(), false, problemTypeBase);
        return response == null ? Mono.error(failure) : ReactiveProblemWriter.write(exchange, response, problemTypeBase);
    }

    private static String routeId(ServerWebExchange exchange) {
        Object route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        return route instanceof org.springframework.cloud.gateway.route.Route known ? "gateway:" + known.getId()
                : "gateway";
    }

    /** The route's answer the key does not keep, already written to the client: fails the execution so the key is released. */
    private static final class AnswerNotKept extends RuntimeException {

        private static final long serialVersionUID = 1L;

        AnswerNotKept() {
            super("The service behind the gateway answered with a status the key does not keep", null, false, false);
        }
    }

    /** A route's settings: {@code IdempotencyKey}, {@code IdempotencyKey=orders}, {@code IdempotencyKey=orders,false}. */
    public static class Config {

        private @Nullable String name;

        private boolean required = true;

        /**
         * The name records are kept under.
         *
         * @return the name, or {@code null} for {@code gateway:<route id>}
         */
        public @Nullable String getName() {
            return name;
        }

        /**
         * Sets the name records are kept under.
         *
         * @param name the name
         */
        public void setName(@Nullable String name) {
            this.name = name;
        }

        /**
         * Whether a changing request without the key is refused (400); else it is forwarded unprotected.
         *
         * @return {@code true} by default
         */
        public boolean isRequired() {
            return required;
        }

        /**
         * Sets whether a changing request without the key is refused.
         *
         * @param required {@code false} to forward it unprotected
         */
        public void setRequired(boolean required) {
            this.required = required;
        }
    }
}
