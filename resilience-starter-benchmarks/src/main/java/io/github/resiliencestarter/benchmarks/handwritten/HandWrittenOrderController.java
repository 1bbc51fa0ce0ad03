package io.github.resiliencestarter.benchmarks.handwritten;

import java.time.Duration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The order effect behind what a team writes without a library: {@code SET key 1 NX EX 600} before
 * the call and {@code DEL} when it fails. One round trip on success; a duplicate is refused with no
 * answer to give, and a crash between the two leaves the key set for ten minutes.
 */
@RestController
public class HandWrittenOrderController {

    private static final Duration HOLD = Duration.ofSeconds(600);

    private final OrderEffects effects;

    private final StringRedisTemplate redis;

    HandWrittenOrderController(OrderEffects effects, StringRedisTemplate redis) {
        this.effects = effects;
        this.redis = redis;
    }

    /**
     * Creates the order unless the key was seen.
     *
     * @param request the order
     * @return its receipt
     */
    @PostMapping("/hand/orders")
    public Receipt create(@RequestBody OrderRequest request) {
        String key = "hand-orders:" + request.id();
        if (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key, "1", HOLD))) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "duplicate request");
        }
        try {
            return effects.create(request);
        } catch (RuntimeException ex) {
            redis.delete(key);
            throw ex;
        }
    }
}
