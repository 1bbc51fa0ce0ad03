package io.github.resiliencestarter.sample.inventory;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.sample.BusinessProblem;
import io.github.resiliencestarter.spring.http.DerivedIdempotencyKeyInterceptor;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;

/**
 * Calls the inventory over HTTP with Boot's {@code RestClient}: the budget, trace id and attempt
 * travel automatically, and each call carries an {@code Idempotency-Key} derived from the order's
 * own key, which is what makes retrying it safe.
 */
@Component
public class InventoryClient {

    /** Problem type of a key whose first response cannot be replayed. */
    private static final String RESPONSE_NOT_RECORDED = "idempotent-response-unavailable";

    private final RestClient.Builder builder;

    private final Environment environment;

    private final String baseUrl;

    private volatile RestClient client;

    InventoryClient(RestClient.Builder builder, DerivedIdempotencyKeyInterceptor derivedKeys, Environment environment,
            @Value("${sample.inventory-url:}") String baseUrl) {
        this.builder = builder.clone().requestInterceptor(derivedKeys);
        this.environment = environment;
        this.baseUrl = baseUrl;
    }

    /**
     * Reserves stock, retrying transient failures (5xx, timeouts, refused connections); each
     * attempt passes the inventory's circuit breaker, which refuses at once (503, with
     * {@code Retry-After}) while the inventory keeps failing and lets traffic back gradually.
     *
     * @param orderNo the order
     * @param productId the product
     * @param quantity how many
     * @return the reservation
     */
    @Retry(name = "inventory", idempotent = true)
    @CircuitBreaker(name = "inventory")
    public Reservation reserve(String orderNo, long productId, int quantity) {
        try {
            return client().post().uri("/inventory/reserve").body(new ReserveRequest(orderNo, productId, quantity))
                    .retrieve().body(Reservation.class);
        } catch (HttpServerErrorException failed) {
            throw new InventoryUnavailable(failed);
        } catch (HttpClientErrorException refused) {
            if (refused.getStatusCode() == HttpStatus.CONFLICT
                    && refused.getResponseBodyAsString().contains(RESPONSE_NOT_RECORDED)) {
                // the reservation committed but its response was lost in a crash: ask for the state instead
                return client().get().uri("/inventory/reservation/{orderNo}?productId={productId}", orderNo,
                        productId).retrieve().body(Reservation.class);
            }
            // the inventory's own verdict on the request (no such product, too little stock): the
            // caller's fault, answered as a problem of this service, not a 500
            throw new BusinessProblem(HttpStatus.valueOf(refused.getStatusCode().value()), "inventory-refused",
                    inventoryDetail(refused));
        }
    }

    private static String inventoryDetail(HttpClientErrorException refused) {
        ProblemDetail problem = refused.getResponseBodyAs(ProblemDetail.class);
        return problem != null && problem.getDetail() != null ? problem.getDetail()
                : "The inventory refused the reservation (" + refused.getStatusCode().value() + ")";
    }

    private RestClient client() {
        RestClient current = client;
        if (current == null) {
            String url = baseUrl.isEmpty() ? "http://127.0.0.1:" + environment.getProperty("local.server.port")
                    : baseUrl;
            current = builder.baseUrl(url).build();
            client = current;
        }
        return current;
    }
}
