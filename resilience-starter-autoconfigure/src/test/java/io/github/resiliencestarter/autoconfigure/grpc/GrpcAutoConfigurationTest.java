package io.github.resiliencestarter.autoconfigure.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.retry.RetryConfigRegistry;
import io.github.resiliencestarter.spring.grpc.DeadlineClientInterceptor;
import io.github.resiliencestarter.spring.grpc.GrpcCallerScope;
import io.github.resiliencestarter.spring.grpc.GrpcContextPropagator;
import io.github.resiliencestarter.spring.grpc.GrpcPrincipal;
import io.github.resiliencestarter.spring.grpc.GrpcRetryRules;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import io.github.resiliencestarter.spring.idempotent.IdempotencyScopeResolver;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.grpc.client.GlobalClientInterceptor;
import org.springframework.grpc.server.GlobalServerInterceptor;

/** When the gRPC interceptors and retry rules are defined, and when not. */
class GrpcAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, RetryAutoConfiguration.class,
                    GrpcAutoConfiguration.class));

    @Test
    void withGrpcJavaTheInterceptorsAreDefinedAndRetriesClassifyItsStatuses() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TraceContextServerInterceptor.class)
                    .hasSingleBean(DeadlineClientInterceptor.class).hasSingleBean(GrpcRetryRules.class)
                    .hasSingleBean(GrpcContextPropagator.class);
            var classifier = context.getBean(RetryConfigRegistry.class).config(null).classifier();
            assertThat(classifier.isRetryable(Status.UNAVAILABLE.asRuntimeException())).isTrue();
            assertThat(classifier.isRetryable(Status.INVALID_ARGUMENT.asRuntimeException())).isFalse();
        });
    }

    @Test
    void withoutGrpcJavaNothingIsDefined() {
        runner.withClassLoader(new FilteredClassLoader(ServerInterceptor.class)).run(context -> assertThat(context)
                .hasNotFailed().doesNotHaveBean(TraceContextServerInterceptor.class)
                .doesNotHaveBean(GrpcRetryRules.class));
    }

    @Test
    void withTheWholeStarterOffNothingIsDefined() {
        runner.withPropertyValues("resilience.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TraceContextServerInterceptor.class).doesNotHaveBean(DeadlineClientInterceptor.class));
    }

    @Test
    void withSpringGrpcTheInterceptorsAreItsGlobalOnes() {
        runner.run(context -> {
            assertThat(context.findAnnotationOnBean("traceContextServerInterceptor", GlobalServerInterceptor.class))
                    .isNotNull();
            assertThat(context.findAnnotationOnBean("deadlineClientInterceptor", GlobalClientInterceptor.class))
                    .isNotNull();
            assertThat(context).hasSingleBean(TraceContextServerInterceptor.class)
                    .hasSingleBean(DeadlineClientInterceptor.class);
        });
    }

    @Test
    void withoutSpringGrpcThePlainInterceptorsAreDefined() {
        runner.withClassLoader(new FilteredClassLoader(GlobalServerInterceptor.class, GlobalClientInterceptor.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(TraceContextServerInterceptor.class)
                            .hasSingleBean(DeadlineClientInterceptor.class);
                    assertThat(context.findAnnotationOnBean("traceContextServerInterceptor",
                            GlobalServerInterceptor.class)).isNull();
                });
    }

    @Test
    void aGrpcPrincipalOfTheApplicationScopesKeysAndWithoutOneNothingIsAdded() {
        ApplicationContextRunner withIdempotency = runner.withConfiguration(AutoConfigurations.of(
                IdempotencyAutoConfiguration.class));
        withIdempotency.withBean(GrpcPrincipal.class, () -> call -> "alice").run(context -> {
            assertThat(context).hasSingleBean(GrpcCallerScope.class);
            assertThat(context.getBean(IdempotencyScopeResolver.class).currentScope())
                    .as("outside a gRPC call the principal is not asked").isEmpty();
        });
        withIdempotency.run(context -> assertThat(context).doesNotHaveBean(GrpcCallerScope.class));
    }
}
