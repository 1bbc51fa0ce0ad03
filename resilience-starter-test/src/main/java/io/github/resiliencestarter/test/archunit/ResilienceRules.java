package io.github.resiliencestarter.test.archunit;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import java.lang.annotation.Annotation;
import java.util.List;

/**
 * The starter's rules for an application's own build. In a JUnit 5 test with ArchUnit's engine:
 *
 * <pre>{@code
 * @AnalyzeClasses(packages = "com.example.orders")
 * class ResilienceRulesTest {
 *     @ArchTest
 *     static final ArchTests resilience = ArchTests.in(ResilienceRules.class);
 * }
 * }</pre>
 *
 * or, in any test, {@code ResilienceRules.ALL.check(new ClassFileImporter().importPackages("com.example"))}.
 * Each violation names the member, the rule and the fix. The rules read annotations as the running
 * starter does, through its own checks, so a build that passes starts without the same complaints.
 */
public final class ResilienceRules {

    /** The starter's annotations that a proxy applies. */
    private static final List<Class<? extends Annotation>> PROXIED = List.of(Timeout.class, Retry.class,
            Idempotent.class, CircuitBreaker.class);

    /**
     * A handler mapped to POST or PATCH, or to every method and named like a write, carries
     * {@code @Idempotent} or {@code @IdempotencyExempt("why")} (rules I-2, I-4, R-P1).
     */
    @ArchTest
    public static final ArchRule STATE_CHANGING_HANDLERS_ARE_IDEMPOTENT = stateChangingHandlersAreIdempotent(
            List.of(), List.of());

    /** {@code @Retry} only on methods the startup safety gate accepts, hedging only where allowed (R-1, C-2). */
    @ArchTest
    public static final ArchRule RETRIES_PASS_THE_SAFETY_GATE = retriesPassTheSafetyGate(List.of());

    /** {@code RestTemplate}, {@code RestClient} and {@code WebClient} beans set connect and read timeouts (T-4, T-P4). */
    @ArchTest
    public static final ArchRule OUTBOUND_CLIENTS_HAVE_TIMEOUTS = OutboundClientTimeoutsRule.rule();

    /** Annotated methods are public, non-final, non-static, in a non-final class, and not called on {@code this}. */
    @ArchTest
    public static final ArchRule ANNOTATIONS_ARE_REACHABLE_THROUGH_THE_PROXY = ProxyReachabilityRule.rule(PROXIED);

    /** A {@code @Timeout} reached from another {@code @Timeout}'s method is not longer than it (T-1, T-P3). */
    @ArchTest
    public static final ArchRule INNER_TIMEOUTS_FIT_THE_OUTER_ONES = NestedTimeoutsRule.rule();

    /** Every rule above, for a plain {@code check}; not an {@code @ArchTest}, which would run each twice. */
    public static final ArchRule ALL = CompositeArchRule.of(STATE_CHANGING_HANDLERS_ARE_IDEMPOTENT)
            .and(RETRIES_PASS_THE_SAFETY_GATE).and(OUTBOUND_CLIENTS_HAVE_TIMEOUTS)
            .and(ANNOTATIONS_ARE_REACHABLE_THROUGH_THE_PROXY).and(INNER_TIMEOUTS_FIT_THE_OUTER_ONES);

    private ResilienceRules() {
    }

    /**
     * {@link #STATE_CHANGING_HANDLERS_ARE_IDEMPOTENT} for an application with idempotency
     * annotations or opt-outs of its own.
     *
     * @param idempotencyAnnotations annotations that make a method idempotent, as
     *     {@code IdempotencyMarker} beans declare them to the safety gate
     * @param exemptions annotations accepted in place of {@code @IdempotencyExempt}
     * @return the rule
     */
    public static ArchRule stateChangingHandlersAreIdempotent(
            List<Class<? extends Annotation>> idempotencyAnnotations, List<Class<? extends Annotation>> exemptions) {
        return StateChangingHandlersRule.rule(idempotencyAnnotations, exemptions);
    }

    /**
     * {@link #RETRIES_PASS_THE_SAFETY_GATE} for an application with idempotency annotations of its
     * own ({@code IdempotencyMarker} beans).
     *
     * @param idempotencyAnnotations annotations that make a method idempotent
     * @return the rule
     */
    public static ArchRule retriesPassTheSafetyGate(List<Class<? extends Annotation>> idempotencyAnnotations) {
        return RetrySafetyRule.rule(idempotencyAnnotations);
    }
}
