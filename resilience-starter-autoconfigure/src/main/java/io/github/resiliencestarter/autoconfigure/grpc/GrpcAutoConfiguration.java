package io.github.resiliencestarter.autoconfigure.grpc;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.http.OutboundProperties;
import io.github.resiliencestarter.autoconfigure.web.TraceProperties;
import io.github.resiliencestarter.spring.grpc.DeadlineClientInterceptor;
import io.github.resiliencestarter.spring.grpc.GrpcContextPropagator;
import io.github.resiliencestarter.spring.grpc.GrpcRetryRules;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * gRPC with grpc-java: a server interceptor (the call's trace context from its metadata and its own
 * deadline, the starter's failures as gRPC statuses), a client interceptor (each call's deadline
 * bounded by the remaining budget, the trace id sent), and the retry rules of gRPC statuses. Add
 * the interceptors to the servers and channels the application builds (docs/grpc.md); the retry
 * rules apply by themselves. Caps and margins are HTTP's: {@code resilience.trace.max-inbound-budget}
 * and {@code resilience.outbound.budget-margin}.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnClass(name = "io.grpc.ServerInterceptor")
@EnableConfigurationProperties({TraceProperties.class, OutboundProperties.class})
public class GrpcAutoConfiguration {

    /**
     * The server interceptor.
     *
     * @param trace the inbound cap
     * @return the interceptor
     */
    @Bean
    @ConditionalOnMissingBean
    public TraceContextServerInterceptor traceContextServerInterceptor(TraceProperties trace) {
        return new TraceContextServerInterceptor(trace.getMaxInboundBudget(), null);
    }

    /**
     * The client interceptor.
     *
     * @param outbound the margin kept back from the budget
     * @return the interceptor
     */
    @Bean
    @ConditionalOnMissingBean
    public DeadlineClientInterceptor deadlineClientInterceptor(OutboundProperties outbound) {
        return new DeadlineClientInterceptor(outbound.getBudgetMargin());
    }

    /**
     * Carries an inbound call's gRPC context (metadata, deadline, cancellation) to timeout workers
     * and task executors.
     *
     * @return the propagator
     */
    @Bean
    @ConditionalOnMissingBean
    public GrpcContextPropagator grpcContextPropagator() {
        return new GrpcContextPropagator();
    }

    /**
     * The retry classification of gRPC statuses, beside the other rules.
     *
     * @return the rules
     */
    @Bean
    @ConditionalOnMissingBean
    public GrpcRetryRules grpcRetryRules() {
        return new GrpcRetryRules();
    }
}
