package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.idempotent.IdempotencyObserver;
import io.github.resiliencestarter.idempotent.IdempotencyOutcome;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Annotating an endpoint whose clients send no key yet: {@code required = false} (or the name in
 * {@code resilience.idempotent.key-optional}) lets a keyless call run unprotected, counted, where
 * the default answers 400. Outside a request there is no header, so every call here is keyless.
 */
class KeyOptionalTest {

    private final List<String> outcomes = new CopyOnWriteArrayList<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class))
            .withBean(IdempotencyObserver.class, () -> (operation, outcome) -> outcomes.add(operation + " " + outcome))
            .withBean(Orders.class);

    static class Orders {

        private final AtomicInteger executions = new AtomicInteger();

        public int executions() {
            return executions.get();
        }

        @Idempotent(required = false)
        public String legacy(String order) {
            return order + " " + executions.incrementAndGet();
        }

        @Idempotent
        public String strict(String order) {
            return order + " " + executions.incrementAndGet();
        }
    }

    static class ContradictoryDeclaration {

        @Idempotent(key = "#order", required = false)
        public String create(String order) {
            return order;
        }
    }

    @Test
    void aKeylessCallToAMethodThatDoesNotRequireAKeyRunsUnprotectedAndIsCounted() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.legacy("A")).isEqualTo("A 1");
            assertThat(orders.legacy("A")).as("no key, no deduplication").isEqualTo("A 2");
            assertThat(outcomes).containsExactly("Orders.legacy " + IdempotencyOutcome.UNPROTECTED,
                    "Orders.legacy " + IdempotencyOutcome.UNPROTECTED);
            assertThatThrownBy(() -> orders.strict("B")).isInstanceOf(IdempotencyKeyException.class);
            assertThat(orders.executions()).isEqualTo(2);
        });
    }

    @Test
    void theNameListedInKeyOptionalDoesTheSameWithoutTouchingTheCode() {
        runner.withPropertyValues("resilience.idempotent.key-optional=Orders.strict").run(context -> {
            assertThat(context.getBean(Orders.class).strict("B")).isEqualTo("B 1");
            assertThat(outcomes).containsExactly("Orders.strict " + IdempotencyOutcome.UNPROTECTED);
        });
    }

    @Test
    void requiredFalseWithAKeyExpressionFailsTheStart() {
        runner.withBean(ContradictoryDeclaration.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Idempotent(required = false) on " + ContradictoryDeclaration.class.getName())
                .hasStackTraceContaining("applies to the Idempotency-Key header only"));
    }
}
