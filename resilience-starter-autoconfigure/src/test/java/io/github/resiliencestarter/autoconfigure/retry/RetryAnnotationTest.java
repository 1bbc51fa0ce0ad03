package io.github.resiliencestarter.autoconfigure.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.IdempotencyInProgressException;
import io.github.resiliencestarter.retry.NonRetryableException;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.retry.RetrySummary;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.spring.aop.RetryOperationSource;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.ReadTimeoutException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;

class RetryAnnotationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class))
            .withPropertyValues("resilience.retry.delay=5ms", "resilience.retry.max-delay=20ms");

    @Test
    void registersTheRetryBeansAndBacksOffForUserBeans() {
        runner.run(context -> assertThat(context).hasSingleBean(RetryConfigRegistry.class)
                .hasSingleBean(RetryOperationSource.class).hasBean("retryAdvisor"));
        runner.withBean("myRegistry", RetryConfigRegistry.class, RetryConfigRegistry::ofDefaults)
                .run(context -> assertThat(context).hasSingleBean(RetryConfigRegistry.class).hasBean("myRegistry"));
        runner.withPropertyValues("resilience.retry.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(RetryOperationSource.class).doesNotHaveBean("retryAdvisor"));
        runner.withPropertyValues("resilience.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(RetryConfigRegistry.class));
    }

    @Test
    void RP1_aRetryOnAMethodNotKnownToBeIdempotentFailsTheStartNamingTheMethodAndTheFixes() {
        runner.withBean(UnsafeService.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Retry on " + UnsafeService.class.getName() + ".createOrder(String)")
                .hasStackTraceContaining("add @Idempotent")
                .hasStackTraceContaining("GET, HEAD, PUT, DELETE or OPTIONS handler")
                .hasStackTraceContaining("@Retry(idempotent = true)"));
        runner.withBean(UnsafePostHandler.class).run(context -> assertThat(context).hasFailed());
    }

    @Test
    void R1_warnModeStartsButRetriesOnlyRequestsThatWereNeverSent() {
        runner.withPropertyValues("resilience.retry.safety-gate=WARN").withBean(UnsafeService.class).run(context -> {
            UnsafeService service = context.getBean(UnsafeService.class);
            assertThatThrownBy(() -> service.createOrder("read-timeout")).isInstanceOf(ReadTimeoutException.class);
            assertThat(service.calls()).isEqualTo(1);
            assertThatThrownBy(() -> service.createOrder("refused")).isInstanceOf(ConnectException.class);
            assertThat(service.calls()).isEqualTo(1 + 3);
        });
    }

    @Test
    void R1_allowModeRetriesAsConfigured() {
        runner.withPropertyValues("resilience.retry.safety-gate=ALLOW").withBean(UnsafeService.class).run(context -> {
            UnsafeService service = context.getBean(UnsafeService.class);
            assertThatThrownBy(() -> service.createOrder("read-timeout")).isInstanceOf(ReadTimeoutException.class);
            assertThat(service.calls()).isEqualTo(3);
        });
    }

    @Test
    void R1_declaredIdempotentIdempotentHttpMethodsAndUnsentOnlyRetriesPassTheGate() {
        runner.withBean(SafeService.class).run(context -> {
            assertThat(context).hasNotFailed();
            SafeService service = context.getBean(SafeService.class);
            assertThatThrownBy(service::declared).isInstanceOf(RetryableException.class);
            assertThatThrownBy(service::get).isInstanceOf(RetryableException.class);
            assertThatThrownBy(service::put).isInstanceOf(RetryableException.class);
            assertThatThrownBy(service::unsentOnly).isInstanceOf(ConnectException.class);
            assertThat(service.calls()).isEqualTo(12);
        });
    }

    @Test
    void R1_listingAnUnsentRequestTypeInRetryForDoesNotOpenANonIdempotentMethodToOtherRetries() {
        runner.withBean(SafeService.class).run(context -> {
            SafeService service = context.getBean(SafeService.class);
            int before = service.calls();
            // a read timeout and a 5xx may have reached the other side: one attempt only
            assertThatThrownBy(() -> service.unsentOnlyFailingWith(new ReadTimeoutException("read timed out", null)))
                    .isInstanceOf(ReadTimeoutException.class);
            assertThat(service.calls()).isEqualTo(before + 1);
            assertThatThrownBy(() -> service.unsentOnlyFailingWith(new RetryableException("HTTP_503", "unavailable")))
                    .isInstanceOf(RetryableException.class);
            assertThat(service.calls()).isEqualTo(before + 2);
            // a refused connection sent nothing: retried as listed
            assertThatThrownBy(() -> service.unsentOnlyFailingWith(new ConnectException("refused")))
                    .isInstanceOf(ConnectException.class);
            assertThat(service.calls()).isEqualTo(before + 5);
        });
    }

    @Test
    void R2_retryForNeverMakesANonRetryableErrorASpentDeadlineOrAnIdempotencyConflictRetryable() {
        runner.withBean(SafeService.class).run(context -> {
            SafeService service = context.getBean(SafeService.class);
            List<RuntimeException> neverRetried = List.of(new NonRetryableException("INSUFFICIENT_BALANCE", "no"),
                    DeadlineExceededException.budgetSpent("Orders.create"),
                    new IdempotencyInProgressException("Orders.create", 1),
                    new IllegalStateException("wrapped", new NonRetryableException("RULE", "no")));
            for (RuntimeException error : neverRetried) {
                int before = service.calls();
                assertThatThrownBy(() -> service.retriesEveryRuntimeException(error)).isSameAs(error);
                assertThat(service.calls()).as(error.toString()).isEqualTo(before + 1);
            }
            int before = service.calls();
            assertThatThrownBy(() -> service.retriesEveryRuntimeException(new IllegalStateException("transient")))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(service.calls()).isEqualTo(before + 3);
        });
    }

    @Test
    void R2_springHttpAndDataAccessErrorsAreClassified() {
        runner.withBean(ClassifiedService.class).run(context -> {
            ClassifiedService service = context.getBean(ClassifiedService.class);
            assertThat(attempts(service, new HttpServerErrorException(HttpStatus.SERVICE_UNAVAILABLE))).isEqualTo(3);
            assertThat(attempts(service, new HttpClientErrorException(HttpStatus.TOO_MANY_REQUESTS))).isEqualTo(3);
            assertThat(attempts(service, new HttpClientErrorException(HttpStatus.REQUEST_TIMEOUT))).isEqualTo(3);
            assertThat(attempts(service, new HttpClientErrorException(HttpStatus.BAD_REQUEST))).isEqualTo(1);
            assertThat(attempts(service, new HttpClientErrorException(HttpStatus.NOT_FOUND))).isEqualTo(1);
            assertThat(attempts(service, new HttpClientErrorException(HttpStatus.FORBIDDEN))).isEqualTo(1);
            assertThat(attempts(service, new CannotAcquireLockException("Lock wait timeout exceeded"))).isEqualTo(3);
            assertThat(attempts(service, new DataIntegrityViolationException("duplicate key"))).isEqualTo(1);
        });
    }

    @Test
    void retryAfterOfA429IsHonoured() {
        runner.withBean(ClassifiedService.class).run(context -> {
            ClassifiedService service = context.getBean(ClassifiedService.class);
            HttpHeaders headers = new HttpHeaders();
            headers.set(HttpHeaders.RETRY_AFTER, "1");
            RuntimeException throttled = HttpClientErrorException.create(HttpStatus.TOO_MANY_REQUESTS, "slow down",
                    headers, new byte[0], StandardCharsets.UTF_8);
            long start = System.nanoTime();
            assertThat(attempts(service, throttled)).isEqualTo(3);
            // two waits of the requested second, instead of the configured 5-20 ms back-off
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(1900);
        });
    }

    @Test
    void namedInstancesAndAnnotationAttributesOverrideTheDefaults() {
        runner.withPropertyValues("resilience.retry.instances.inventory.max-attempts=5").withBean(ClassifiedService.class)
                .run(context -> {
                    ClassifiedService service = context.getBean(ClassifiedService.class);
                    assertThatThrownBy(service::named).isInstanceOf(RetryableException.class)
                            .satisfies(e -> assertThat(RetrySummary.of(e).attempts()).isEqualTo(5));
                    assertThatThrownBy(service::two).isInstanceOf(RetryableException.class)
                            .satisfies(e -> assertThat(RetrySummary.of(e).attempts()).isEqualTo(2));
                });
    }

    @Test
    void moreAttemptsThanTheCapFailTheStart() {
        runner.withPropertyValues("resilience.retry.max-attempts-cap=4").withBean(TooManyAttempts.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("asks for 20 attempts; allowed are 1 to 4"));
    }

    @Test
    void theFallbackReceivesTheFinalErrorAfterTheLastAttempt() {
        runner.withBean(ClassifiedService.class).run(context -> {
            ClassifiedService service = context.getBean(ClassifiedService.class);
            assertThat(service.withFallback()).isEqualTo("fallback after 3 attempts: RetryableException");
        });
    }

    @Test
    void R5_eachAttemptSeesItsNumberInTheTraceContext() {
        runner.withBean(ClassifiedService.class).run(context -> {
            ClassifiedService service = context.getBean(ClassifiedService.class);
            assertThat(service.attemptNumbers()).containsExactly(1, 2, 3);
        });
    }

    private static int attempts(ClassifiedService service, RuntimeException error) {
        int before = service.calls();
        try {
            service.fail(error);
        } catch (RuntimeException expected) {
            assertThat(expected).isSameAs(error);
        }
        return service.calls() - before;
    }

    static class UnsafeService {

        private final AtomicInteger calls = new AtomicInteger();

        public int calls() {
            return calls.get();
        }

        @Retry
        public String createOrder(String failure) throws Exception {
            calls.incrementAndGet();
            throw "refused".equals(failure) ? new ConnectException("Connection refused")
                    : new ReadTimeoutException("read timed out", null);
        }
    }

    static class UnsafePostHandler {

        @PostMapping("/orders")
        @Retry
        public String post() {
            return "created";
        }
    }

    static class SafeService {

        private final AtomicInteger calls = new AtomicInteger();

        public int calls() {
            return calls.get();
        }

        @Retry(idempotent = true)
        public void declared() {
            calls.incrementAndGet();
            throw new RetryableException("BUSY", "busy");
        }

        @GetMapping("/things")
        @Retry
        public void get() {
            calls.incrementAndGet();
            throw new RetryableException("BUSY", "busy");
        }

        @PutMapping("/things/1")
        @Retry
        public void put() {
            calls.incrementAndGet();
            throw new RetryableException("BUSY", "busy");
        }

        @Retry(retryFor = ConnectException.class)
        public void unsentOnly() throws ConnectException {
            calls.incrementAndGet();
            throw new ConnectException("refused");
        }

        @Retry(retryFor = ConnectException.class, delay = "1ms")
        public void unsentOnlyFailingWith(Exception error) throws Exception {
            calls.incrementAndGet();
            throw error;
        }

        @Retry(idempotent = true, retryFor = RuntimeException.class, delay = "1ms")
        public void retriesEveryRuntimeException(RuntimeException error) {
            calls.incrementAndGet();
            throw error;
        }
    }

    static class ClassifiedService {

        private final AtomicInteger calls = new AtomicInteger();

        public int calls() {
            return calls.get();
        }

        @Retry(idempotent = true)
        public void fail(RuntimeException error) {
            calls.incrementAndGet();
            throw error;
        }

        @Retry(name = "inventory", idempotent = true)
        public void named() {
            throw new RetryableException("BUSY", "busy");
        }

        @Retry(name = "inventory", maxAttempts = 2, idempotent = true)
        public void two() {
            throw new RetryableException("BUSY", "busy");
        }

        @Retry(idempotent = true, fallbackMethod = "recover")
        public String withFallback() {
            throw new RetryableException("BUSY", "busy");
        }

        String recover(RetryableException error) {
            return "fallback after " + RetrySummary.of(error).attempts() + " attempts: "
                    + error.getClass().getSimpleName();
        }

        private final List<Integer> seen = new ArrayList<>();

        @Retry(idempotent = true)
        public List<Integer> attemptNumbers() {
            seen.add(TraceContextHolder.current().attempt());
            if (seen.size() < 3) {
                throw new RetryableException("BUSY", "busy");
            }
            return List.copyOf(seen);
        }
    }

    static class TooManyAttempts {

        @Retry(maxAttempts = 20, idempotent = true)
        public void call() {
        }
    }
}
