package io.github.resiliencestarter.autoconfigure.propagation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.spring.jdbc.DeadlineBoundDataSource;
import io.github.resiliencestarter.spring.task.TraceContextTaskDecorator;
import io.github.resiliencestarter.testsupport.BootLine;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

class PropagationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(PropagationAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
                    BootLine.dataSourceAutoConfiguration()));

    @Test
    void asyncMethodsSeeTheCallersTraceIdAndMdc() {
        runner.withUserConfiguration(AsyncConfig.class).withBean(AsyncService.class).run(context -> {
            assertThat(context).hasSingleBean(TraceContextTaskDecorator.class);
            AsyncService service = context.getBean(AsyncService.class);
            try (TraceScope scope = TraceContextHolder.open(TraceContext.empty().withTraceId("async-1"))) {
                assertThat(service.seen().get(5, TimeUnit.SECONDS)).isEqualTo("async-1|async-1");
            }
            // the same worker afterwards: nothing left behind
            assertThat(service.seen().get(5, TimeUnit.SECONDS)).isEqualTo("null|null");
        });
    }

    @Test
    void jdbcBoundingIsOptIn() {
        runner.run(context -> assertThat(context.getBean(DataSource.class))
                .isNotInstanceOf(DeadlineBoundDataSource.class));
        runner.withPropertyValues("resilience.propagation.bound-jdbc-statements=true").run(context -> assertThat(
                context.getBean(DataSource.class)).isInstanceOf(DeadlineBoundDataSource.class));
    }

    @Test
    void theDecoratorCanBeSwitchedOffOrReplaced() {
        runner.withPropertyValues("resilience.propagation.task-executors=false")
                .run(context -> assertThat(context).doesNotHaveBean(TraceContextTaskDecorator.class));
        runner.withPropertyValues("resilience.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(TraceContextTaskDecorator.class));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class AsyncConfig {
    }

    static class AsyncService {

        @Async
        public CompletableFuture<String> seen() {
            return CompletableFuture.completedFuture(TraceContextHolder.current().traceId() + "|"
                    + MDC.get(TraceContextHolder.MDC_TRACE_ID));
        }
    }
}
