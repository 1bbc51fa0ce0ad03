package io.github.resiliencestarter.sample.inventory;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.sample.BusinessProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** The inventory API, with its fault injection. */
@RestController
public class InventoryController {

    private final InventoryService inventory;

    private final Faults faults;

    private final boolean faultsEndpoint;

    InventoryController(InventoryService inventory, Faults faults,
            @Value("${sample.faults-endpoint:false}") boolean faultsEndpoint) {
        this.inventory = inventory;
        this.faults = faults;
        this.faultsEndpoint = faultsEndpoint;
    }

    /**
     * Reserves stock. The key is the {@code Idempotency-Key} the order service derives, so its
     * retries and re-executions reserve once.
     *
     * @param request what to reserve
     * @param budgetMs the budget granted by the caller
     * @param attempt the caller's retry attempt
     * @return the reservation
     * @throws InterruptedException when the deadline interrupts an injected latency
     */
    @PostMapping("/inventory/reserve")
    @Timeout("5s")
    @Idempotent(name = "STOCK_RESERVE", fingerprint = "#request")
    public Reservation reserve(@Valid @RequestBody ReserveRequest request,
            @RequestHeader(name = ResilienceHeaders.TIMEOUT_BUDGET_MS, required = false) String budgetMs,
            @RequestHeader(name = ResilienceHeaders.RETRY_ATTEMPT, required = false) String attempt)
            throws InterruptedException {
        faults.apply(budgetMs, attempt);
        return inventory.reserve(request.orderNo(), request.productId(), request.quantity());
    }

    /**
     * The reservation of an order.
     *
     * @param orderNo the order
     * @param productId the product
     * @return the reservation (404 problem when there is none)
     */
    @GetMapping("/inventory/reservation/{orderNo}")
    public Reservation reservation(@PathVariable String orderNo, @RequestParam long productId) {
        return inventory.find(orderNo, productId);
    }

    /**
     * Units left of a product.
     *
     * @param productId the product
     * @return the product and its units
     */
    @GetMapping("/inventory/stock/{productId}")
    public Map<String, Object> stock(@PathVariable long productId) {
        return Map.of("productId", productId, "available", inventory.available(productId));
    }

    /**
     * Units left of a product, as a {@code Mono} that Spring MVC serves asynchronously. The
     * {@code @Timeout} bounds the completion of the Mono, not the call that builds it: with an
     * injected latency above 1 s its subscription is disposed at the deadline and the client gets a
     * 504 problem (docs/async.md).
     *
     * @param productId the product
     * @return the product and its units, when the Mono completes
     */
    @GetMapping("/inventory/stock/{productId}/reactive")
    @Timeout("1s")
    public Mono<Map<String, Object>> stockReactive(@PathVariable long productId) {
        long latencyMs = faults.settings().latencyMs();
        Mono<Map<String, Object>> stock = Mono.fromCallable(() -> Map.<String, Object>of("productId", productId,
                "available", inventory.available(productId))).subscribeOn(Schedulers.boundedElastic());
        return latencyMs > 0 ? Mono.delay(Duration.ofMillis(latencyMs)).then(stock) : stock;
    }

    /**
     * The current faults and the last budget received.
     *
     * @return the settings
     */
    @GetMapping("/inventory/faults")
    public Map<String, Object> faults() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("settings", faults.settings());
        body.put("lastBudgetMs", faults.lastBudgetMs());
        body.put("lastAttempt", faults.lastAttempt());
        return body;
    }

    /**
     * Sets the faults: in the demo profile only ({@code sample.faults-endpoint=true}), and only for
     * callers on this machine. Anywhere else, anyone could make the inventory fail.
     *
     * @param settings latency, failure rate and failure status
     * @param request where the call comes from
     * @return the settings now in force
     */
    @PutMapping("/inventory/faults")
    public Faults.Settings setFaults(@RequestBody Faults.Settings settings, HttpServletRequest request) {
        if (!faultsEndpoint) {
            throw new BusinessProblem(HttpStatus.NOT_FOUND, "faults-endpoint-off",
                    "Faults are set in the demo profile only (scripts/run-sample.sh turns it on)");
        }
        if (!isLoopback(request.getRemoteAddr())) {
            throw new BusinessProblem(HttpStatus.FORBIDDEN, "faults-endpoint-local",
                    "Faults are set from this machine only");
        }
        faults.set(settings);
        return faults.settings();
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException ex) {
            return false;
        }
    }
}
