package io.github.resiliencestarter.autoconfigure.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.spring.aop.OffloadInTransactionException;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import io.github.resiliencestarter.timeout.TimeoutMode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

class TimeoutAnnotationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class))
            .withPropertyValues("resilience.timeout.instances.fast.duration=80ms", "test.timeout=120ms");

    @Test
    void T3_anAnnotatedMethodIsInterruptedAtItsTimeout() {
        runner.withBean(SlowService.class).run(context -> {
            SlowService service = context.getBean(SlowService.class);
            long start = System.nanoTime();
            assertThatThrownBy(() -> service.sleep(3_000)).isInstanceOf(DeadlineExceededException.class)
                    .hasMessageContaining("SlowService.sleep");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
            long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (service.interruptedCount() == 0 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertThat(service.interruptedCount()).isEqualTo(1);
            assertThat(service.sleep(10)).isEqualTo("slept 10");
        });
    }

    @Test
    void placeholdersAndNamedInstancesResolveTheDuration() {
        runner.withBean(SlowService.class).run(context -> {
            SlowService service = context.getBean(SlowService.class);
            assertThatThrownBy(() -> service.placeholder(2_000)).isInstanceOf(DeadlineExceededException.class)
                    .satisfies(ex -> assertThat(((DeadlineExceededException) ex).timeout())
                            .isEqualTo(Duration.ofMillis(120)));
            assertThatThrownBy(() -> service.named(2_000)).isInstanceOf(DeadlineExceededException.class)
                    .satisfies(ex -> assertThat(((DeadlineExceededException) ex).timeout())
                            .isEqualTo(Duration.ofMillis(80)));
        });
    }

    @Test
    void aClassLevelAnnotationAppliesToThePublicBusinessMethodsOnly() {
        runner.withBean(ClassLevelService.class).run(context -> {
            // a JDK proxy here: the bean implements an interface and this runner sets no proxy-target-class
            GeneratedApi service = context.getBean(GeneratedApi.class);
            assertThatThrownBy(() -> service.work(2_000)).isInstanceOf(DeadlineExceededException.class);
            assertThat(service.toString()).isEqualTo("class-level");
            assertThat(service.request()).isEqualTo("no request");
            // before: the generated interface's default accessor was governed and listed as well
            assertThat(context.getBean(TimeoutOperationSource.class).operations())
                    .extracting(operation -> operation.name()).containsExactly("ClassLevelService.work");
        });
    }

    @Test
    void theClosestFallbackVariantHandlesTheError() {
        runner.withBean(FallbackService.class).run(context -> {
            FallbackService service = context.getBean(FallbackService.class);
            assertThat(service.call(2_000, false)).isEqualTo("deadline fallback: TIMED_OUT");
            assertThat(service.call(0, true)).isEqualTo("any fallback: IllegalStateException");
            assertThat(service.call(0, false)).isEqualTo("ok");
        });
    }

    @Test
    void aFallbackWithoutAFittingSignatureFailsTheStartNamingTheMethod() {
        runner.withBean(BadFallbackService.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Timeout on " + BadFallbackService.class.getName() + ".call(String)")
                .hasStackTraceContaining("fallbackMethod 'recover'"));
    }

    @Test
    void anInvalidDurationFailsTheStartNamingTheMethod() {
        runner.withBean(BadDurationService.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Timeout on BadDurationService.call has an invalid duration 'soon'"));
    }

    @Test
    void offloadInsideACallersTransactionIsRefusedAndInterruptModeRunsInIt() {
        runner.withUserConfiguration(TransactionConfig.class).withBean(TxService.class).run(context -> {
            TxService service = context.getBean(TxService.class);
            TransactionTemplate tx = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));

            assertThatThrownBy(() -> tx.executeWithoutResult(status -> service.offload()))
                    .isInstanceOf(OffloadInTransactionException.class).hasMessageContaining("TxService.offload");
            assertThat(service.offloadCount()).isZero();

            Boolean inTx = tx.execute(status -> service.interrupting());
            assertThat(inTx).isTrue();
        });
    }

    @Test
    void timeoutWrapsTransactionalSoTheTransactionRunsOnTheWorker() {
        runner.withUserConfiguration(TransactionConfig.class).withBean(TxService.class).run(context -> {
            String seen = context.getBean(TxService.class).offloadedTransactional();
            assertThat(seen).startsWith("resilience-timeout-").endsWith("|true");
        });
    }

    static class SlowService {

        private final AtomicInteger interrupted = new AtomicInteger();

        public int interruptedCount() {
            return interrupted.get();
        }

        @Timeout("150ms")
        public String sleep(long millis) throws InterruptedException {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException ex) {
                interrupted.incrementAndGet();
                throw ex;
            }
            return "slept " + millis;
        }

        @Timeout("${test.timeout}")
        public String placeholder(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return "done";
        }

        @Timeout(name = "fast", mode = TimeoutMode.INTERRUPT)
        public String named(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return "done";
        }
    }

    /** As OpenAPI generators write a controller interface: a default accessor beside the operations. */
    interface GeneratedApi {

        default String request() {
            return "no request";
        }

        String work(long millis) throws InterruptedException;
    }

    @Timeout("100ms")
    static class ClassLevelService implements GeneratedApi {

        @Override
        public String work(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return "done";
        }

        @Override
        public String toString() {
            return "class-level";
        }
    }

    static class FallbackService {

        @Timeout(value = "100ms", fallbackMethod = "recover")
        public String call(long millis, boolean fail) throws InterruptedException {
            if (fail) {
                throw new IllegalStateException("boom");
            }
            Thread.sleep(millis);
            return "ok";
        }

        String recover(long millis, boolean fail, DeadlineExceededException error) {
            return "deadline fallback: " + error.reason();
        }

        String recover(long millis, boolean fail, Exception error) {
            return "any fallback: " + error.getClass().getSimpleName();
        }
    }

    static class BadFallbackService {

        @Timeout(value = "1s", fallbackMethod = "recover")
        public String call(String input) {
            return input;
        }

        Integer recover(String input, Throwable error) {
            return 1;
        }
    }

    static class BadDurationService {

        @Timeout("soon")
        public String call() {
            return "never";
        }
    }

    static class TxService {

        private final AtomicInteger offloadCalls = new AtomicInteger();

        public int offloadCount() {
            return offloadCalls.get();
        }

        @Timeout("1s")
        public void offload() {
            offloadCalls.incrementAndGet();
        }

        @Timeout(value = "1s", mode = TimeoutMode.INTERRUPT)
        public boolean interrupting() {
            return TransactionSynchronizationManager.isActualTransactionActive();
        }

        @Timeout("1s")
        @Transactional
        public String offloadedTransactional() {
            return Thread.currentThread().getName() + "|"
                    + TransactionSynchronizationManager.isActualTransactionActive();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class TransactionConfig {

        @Bean(destroyMethod = "shutdown")
        DataSource dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }
}
