package io.github.resiliencestarter.benchmarks.handwritten;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The bare business call: what a replay must cost less than. */
@RestController
public class BusinessOnlyController {

    private final OrderEffects effects;

    BusinessOnlyController(OrderEffects effects) {
        this.effects = effects;
    }

    /**
     * Creates the order every time.
     *
     * @param request the order
     * @return its receipt
     */
    @PostMapping("/business/orders")
    public Receipt create(@RequestBody OrderRequest request) {
        return effects.create(request);
    }
}
