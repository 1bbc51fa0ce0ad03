package io.github.resiliencestarter.autoconfigure.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Two controllers with one simple name ({@code v1.OrderController} and {@code v2.OrderController})
 * would keep their records, and spend their retry budgets, under one default name: v2 replayed
 * v1's stored response and never ran. The start refuses it, naming both methods.
 */
class UniqueDefaultNamesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class));

    /** Version 1 of the API. */
    static class V1 {

        static class OrderController {

            @Idempotent(key = "#orderNo")
            public String create(String orderNo) {
                return "v1 " + orderNo;
            }

            @Retry(idempotent = true)
            public String quote(String sku) {
                return "v1 " + sku;
            }
        }
    }

    /** Version 2, same simple class name. */
    static class V2 {

        static class OrderController {

            @Idempotent(key = "#orderNo")
            public String create(String orderNo) {
                return "v2 " + orderNo;
            }
        }

        static class RenamedOrderController {

            @Idempotent(key = "#orderNo", name = "OrderController.create.v2")
            public String create(String orderNo) {
                return "v2 " + orderNo;
            }
        }
    }

    /** Version 3: a retried method whose default budget name another version takes. */
    static class V3 {

        static class OrderController {

            @Retry(idempotent = true)
            public String quote(String sku) {
                return "v3 " + sku;
            }
        }
    }

    @Test
    void twoIdempotentMethodsWithOneDefaultNameFailTheStartNamingBoth() {
        runner.withBean(V1.OrderController.class).withBean(V2.OrderController.class).run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("share the default name 'OrderController.create'")
                        .hasStackTraceContaining(V1.OrderController.class.getName() + ".create(String)")
                        .hasStackTraceContaining(V2.OrderController.class.getName() + ".create(String)")
                        .hasStackTraceContaining("@Idempotent(name = \"...\")"));
    }

    @Test
    void anExplicitNameKeepsTheRecordsApartAndEachVersionRunsItsOwnMethod() {
        runner.withBean(V1.OrderController.class).withBean(V2.RenamedOrderController.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(V1.OrderController.class).create("A-1")).isEqualTo("v1 A-1");
            assertThat(context.getBean(V2.RenamedOrderController.class).create("A-1")).isEqualTo("v2 A-1");
        });
    }

    @Test
    void twoRetriedMethodsWithOneDefaultBudgetNameFailTheStart() {
        runner.withBean(V1.OrderController.class).withBean(V3.OrderController.class).run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("share the default name 'OrderController.quote'")
                        .hasStackTraceContaining("@Retry(name = \"...\")"));
    }
}
