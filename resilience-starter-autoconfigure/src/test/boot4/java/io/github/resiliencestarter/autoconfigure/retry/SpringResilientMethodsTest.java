package io.github.resiliencestarter.autoconfigure.retry;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.spring.aop.RetryInterceptor;
import io.github.resiliencestarter.spring.aop.TimeoutInterceptor;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.resilience.annotation.ConcurrencyLimit;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

/**
 * Spring Framework 7's own resilience annotations next to the starter's (Boot 4 line only: the
 * annotations do not exist on Framework 6). See docs/retry.md.
 */
class SpringResilientMethodsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class))
            .withPropertyValues("resilience.retry.delay=1ms", "resilience.retry.max-delay=2ms",
                    "resilience.timeout.mode=INTERRUPT")
            .withUserConfiguration(ResilientMethods.class);

    @Test
    void springsRetryableNextToOurRetryFailsTheStartNamingTheMethod() {
        runner.withBean(TwoRetryLayers.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("TwoRetryLayers.send")
                    .hasMessageContaining("@Retryable on its method")
                    .hasMessageContaining("two layers");
        });
    }

    @Test
    void springsRetryableOnTheClassCountsForEveryMethodWithOurRetry() {
        runner.withBean(RetryableClass.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("RetryableClass.send")
                    .hasMessageContaining("@Retryable on its class");
        });
    }

    @Test
    void springsRetryableAloneKeepsWorkingBesideTheStarter() {
        runner.withBean(OnlySpringRetry.class).run(context -> {
            assertThat(context).hasNotFailed();
            OnlySpringRetry bean = context.getBean(OnlySpringRetry.class);
            assertThat(bean.send()).isEqualTo("sent");
            assertThat(bean.calls()).isEqualTo(2);
        });
    }

    /**
     * The order is part of the contract (docs/retry.md): Spring's concurrency limit is applied by
     * its own post-processor, in front of every advisor already on the bean, so a caller first
     * waits for a permit and only then enters the starter's timeout and retry.
     */
    @Test
    void springsConcurrencyLimitWrapsTheStartersAnnotationsFromOutside() {
        runner.withBean(Limited.class).run(context -> {
            List<String> chain = context.getBean(Limited.class).interceptorsOutsideIn();
            assertThat(chain).containsExactly("ConcurrencyLimit", "Timeout", "Retry");
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods
    static class ResilientMethods {
    }

    static class TwoRetryLayers {

        @Retry(idempotent = true)
        @Retryable
        public String send() {
            return "sent";
        }
    }

    @Retryable
    static class RetryableClass {

        @Retry(idempotent = true)
        public String send() {
            return "sent";
        }
    }

    static class OnlySpringRetry {

        private final AtomicInteger calls = new AtomicInteger();

        public int calls() {
            return calls.get();
        }

        @Retryable(maxRetries = 2, delay = 1)
        public String send() {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("first call fails");
            }
            return "sent";
        }
    }

    static class Limited {

        @ConcurrencyLimit(1)
        @Timeout("5s")
        @Retry(idempotent = true)
        public List<String> interceptorsOutsideIn() {
            // the deepest frame is the outermost layer: read the stack from the bottom up
            List<StackTraceElement> frames = Arrays.asList(new Throwable().getStackTrace());
            java.util.Collections.reverse(frames);
            return frames.stream().map(SpringResilientMethodsTest::layer).filter(name -> name != null).distinct()
                    .toList();
        }
    }

    private static String layer(StackTraceElement frame) {
        String type = frame.getClassName();
        if (type.startsWith("org.springframework.resilience.annotation.ConcurrencyLimitBeanPostProcessor")) {
            return "ConcurrencyLimit";
        }
        if (type.equals(TimeoutInterceptor.class.getName())) {
            return "Timeout";
        }
        if (type.equals(RetryInterceptor.class.getName())) {
            return "Retry";
        }
        return null;
    }
}
