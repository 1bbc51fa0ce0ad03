package io.github.resiliencestarter.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says that a state-changing method deliberately has no {@link Idempotent}, and why: for example
 * a transition guarded by the entity's status ({@code UPDATE ... WHERE status = 'PENDING'}, rule
 * I-7), which is idempotent by itself. The runtime ignores it; the build-time rules of
 * {@code resilience-starter-test} accept it in place of {@code @Idempotent}. It does not make a
 * method safe to retry: {@code @Retry}'s safety gate still asks for its own evidence.
 *
 * <pre>{@code
 * @PostMapping("/order/{orderNo}/pay")
 * @IdempotencyExempt("a status-guarded transition: paying a paid order changes nothing")
 * public OrderView pay(@PathVariable String orderNo) { ... }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface IdempotencyExempt {

    /**
     * Why duplicates of this call are harmless without {@code @Idempotent}; shown in reviews, so
     * it must not be empty.
     *
     * @return the reason
     */
    String value();
}
