package io.github.resiliencestarter.benchmarks.handwritten;

import io.github.resiliencestarter.annotation.Idempotent;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The order effect behind the starter: a duplicate gets the first answer again. */
@RestController
public class StarterOrderController {

    private final OrderEffects effects;

    StarterOrderController(OrderEffects effects) {
        this.effects = effects;
    }

    /**
     * Creates the order once per key.
     *
     * @param request the order
     * @return its receipt, stored and replayed to duplicates
     */
    @PostMapping("/starter/orders")
    @Idempotent(key = "#request.id")
    public Receipt create(@RequestBody OrderRequest request) {
        return effects.create(request);
    }
}
