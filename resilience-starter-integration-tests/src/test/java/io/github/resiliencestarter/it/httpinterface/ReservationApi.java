package io.github.resiliencestarter.it.httpinterface;

import io.github.resiliencestarter.annotation.Retry;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.service.annotation.PostExchange;

/** A client whose retried method sends a POST: the safety gate refuses it at startup. */
public interface ReservationApi {

    /**
     * Reserves stock: not idempotent, and nothing says a repeat is harmless.
     *
     * @param request the reservation
     * @return the server's answer
     */
    @PostExchange("/reservations")
    @Retry(maxAttempts = 3)
    String reserve(@RequestBody String request);
}
