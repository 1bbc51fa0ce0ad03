package io.github.resiliencestarter.webflux.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * What a {@code @WebFluxTest} of an application with the starter answers, on each Boot line (the
 * subclasses carry that line's annotation): the starter is part of the slice.
 */
@Import({ReactiveSliceApplication.Orders.class, ReactiveSliceApplication.OpenSecurity.class})
public abstract class WebFluxSliceContract {

    @Autowired
    private WebTestClient client;

    @Test
    void aMissingIdempotencyKeyIsTheDocumented400() {
        client.post().uri("/slice/orders").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"sku\":\"A\"}")
                .exchange().expectStatus().isBadRequest().expectBody().jsonPath("$.type")
                .isEqualTo("urn:resilience-starter:problem:idempotency-key-invalid");
    }

    @Test
    void aDuplicateReplaysTheFirstResponse() {
        String key = UUID.randomUUID().toString();
        int before = ReactiveSliceApplication.EXECUTIONS.get();
        for (int i = 0; i < 2; i++) {
            client.post().uri("/slice/orders").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue("{\"sku\":\"A\"}").exchange().expectStatus().isOk().expectBody()
                    .jsonPath("$.execution").isEqualTo(before + 1);
        }
        assertThat(ReactiveSliceApplication.EXECUTIONS.get()).isEqualTo(before + 1);
    }

    @Test
    void aMonoPastItsDeadlineIsA504() {
        client.get().uri("/slice/never").exchange().expectStatus().isEqualTo(504).expectBody().jsonPath("$.type")
                .isEqualTo("urn:resilience-starter:problem:deadline-exceeded");
    }
}
