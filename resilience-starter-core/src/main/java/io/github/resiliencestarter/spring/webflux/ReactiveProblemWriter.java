package io.github.resiliencestarter.spring.webflux;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.spring.web.ResilienceProblems;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Writes a problem response straight to a reactive exchange, for the filters that answer before
 * any handler or message converter runs (the inbound filter, the gateway's filters).
 */
public final class ReactiveProblemWriter {

    private ReactiveProblemWriter() {
    }

    /**
     * Writes a problem.
     *
     * @param exchange the exchange, its response not yet committed
     * @param problem the problem
     * @param typeBase what problem types begin with
     * @return completes when written
     */
    public static Mono<Void> write(ServerWebExchange exchange, ProblemDetail problem, String typeBase) {
        return write(exchange, ResponseEntity.status(problem.getStatus()).body(problem), typeBase);
    }

    /**
     * Writes a whole problem response: status, its headers ({@code Retry-After}), the body.
     *
     * @param exchange the exchange, its response not yet committed
     * @param response the response ({@link ResilienceProblems#response})
     * @param typeBase what problem types begin with
     * @return completes when written
     */
    public static Mono<Void> write(ServerWebExchange exchange, ResponseEntity<ProblemDetail> response,
            String typeBase) {
        ProblemDetail problem = response.getBody();
        String path = exchange.getRequest().getPath().value();
        exchange.getResponse().setStatusCode(HttpStatus.valueOf(response.getStatusCode().value()));
        // header by header: addAll(headers) takes a MultiValueMap on Framework 6 and HttpHeaders on 7
        response.getHeaders().forEach((name, values) -> exchange.getResponse().getHeaders().addAll(name, values));
        exchange.getResponse().getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        byte[] body = problem == null ? new byte[0] : JSON.toJSONString(ResilienceProblems.members(
                ResilienceProblems.rebase(problem, typeBase), path)).getBytes(StandardCharsets.UTF_8);
        DataBuffer buffer = exchange.getResponse().bufferFactory().wrap(body);
        return exchange.getResponse().writeWith(Mono.just(buffer));
    }
}
