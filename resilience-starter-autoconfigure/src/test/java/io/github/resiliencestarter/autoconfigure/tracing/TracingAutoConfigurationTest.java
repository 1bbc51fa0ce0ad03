package io.github.resiliencestarter.autoconfigure.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.propagation.PropagationAutoConfiguration;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.micrometer.ContextSnapshotPropagator;
import io.github.resiliencestarter.micrometer.TracerTraceIds;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The conditions of the tracer integration. */
class TracingAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(TracingAutoConfiguration.class, PropagationAutoConfiguration.class));

    @Test
    void withMicrometerTracingTheTracersIdsAreTheSourceAndAnswerNothingWithoutATracer() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TracerTraceIds.class);
            assertThat(context.getBean(TraceIdSource.class).get()).as("no tracer bean").isNull();
            assertThat(context).hasSingleBean(ContextSnapshotPropagator.class);
        });
    }

    @Test
    void withoutMicrometerTracingNothingIsDefinedAndTheContextStarts() {
        runner.withClassLoader(new FilteredClassLoader(Tracer.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TraceIdSource.class));
    }

    @Test
    void anApplicationsOwnSourceWinsAndTheWholeStarterCanBeSwitchedOff() {
        runner.withBean(TraceIdSource.class, () -> () -> "own").run(context -> {
            assertThat(context).doesNotHaveBean(TracerTraceIds.class);
            assertThat(context.getBean(TraceIdSource.class).get()).isEqualTo("own");
        });
        runner.withPropertyValues("resilience.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(TraceIdSource.class));
    }
}
