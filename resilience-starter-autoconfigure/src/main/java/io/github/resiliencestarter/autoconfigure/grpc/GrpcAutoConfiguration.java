package io.github.resiliencestarter.autoconfigure.grpc;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.http.OutboundProperties;
import io.github.resiliencestarter.autoconfigure.web.TraceProperties;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.spring.grpc.DeadlineClientInterceptor;
import io.github.resiliencestarter.spring.grpc.GrpcCallerScope;
import io.github.resiliencestarter.spring.grpc.GrpcContextPropagator;
import io.github.resiliencestarter.spring.grpc.GrpcPrincipal;
import io.github.resiliencestarter.spring.grpc.GrpcRetryRules;
import io.github.resiliencestarter.spring.grpc.TraceContextServerInterceptor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.client.GlobalClientInterceptor;
import org.springframework.grpc.server.GlobalServerInterceptor;

/**
 * gRPC with grpc-java: a server interceptor (the call's trace context from its metadata and its own
 * deadline, the starter's failures as gRPC statuses), a client interceptor (each call's deadline
 * bounded by the remaining budget, the trace id sent), and the retry rules of gRPC statuses. With
 * Spring gRPC (Boot 4.1) the interceptors are its global interceptors, on every service and every
 * channel it builds; otherwise add them to the servers and channels the application builds
 * (docs/grpc.md). The retry rules apply by themselves. Caps and margins are HTTP's:
 * {@code resilience.trace.max-inbound-budget} and {@code resilience.outbound.budget-margin}.
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
     * @param tracerIds the tracer's trace ids, when a tracer runs
     * @return the interceptor
     */
    @Bean
    @ConditionalOnMissingBean
    public TraceContextServerInterceptor traceContextServerInterceptor(TraceProperties trace,
            ObjectProvider<TraceIdSource> tracerIds) {
        return serverInterceptor(trace, tracerIds);
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
        return clientInterceptor(outbound);
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
     * The caller of a gRPC call, read with the application's {@link GrpcPrincipal}, for the scope
     * of {@code @Idempotent} keys; a keyed call whose caller it cannot name fails closed.
     *
     * @param principal the application's reader of the call's principal
     * @return the scope source
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(GrpcPrincipal.class)
    public GrpcCallerScope grpcCallerScope(GrpcPrincipal principal) {
        return new GrpcCallerScope(principal);
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

    private static TraceContextServerInterceptor serverInterceptor(TraceProperties trace,
            ObjectProvider<TraceIdSource> tracerIds) {
        return new TraceContextServerInterceptor(trace.getMaxInboundBudget(), tracerIds.getIfAvailable());
    }

    private static DeadlineClientInterceptor clientInterceptor(OutboundProperties outbound) {
        return new DeadlineClientInterceptor(outbound.getBudgetMargin());
    }

    /**
     * With Spring gRPC the same interceptors, marked as its global ones: defined here first, so
     * the plain definitions above stand back.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.grpc.server.GlobalServerInterceptor",
        "org.springframework.grpc.client.GlobalClientInterceptor"})
    static class SpringGrpcGlobalInterceptors {

        /**
         * The server interceptor, on every service Spring gRPC serves.
         *
         * @param trace the inbound cap
         * @param tracerIds the tracer's trace ids, when a tracer runs
         * @return the interceptor
         */
        @Bean
        @ConditionalOnMissingBean
        @GlobalServerInterceptor
        TraceContextServerInterceptor traceContextServerInterceptor(TraceProperties trace,
                ObjectProvider<TraceIdSource> tracerIds) {
            return serverInterceptor(trace, tracerIds);
        }

        /**
         * The client interceptor, on every channel Spring gRPC's channel factory builds.
         *
         * @param outbound the margin kept back from the budget
         * @return the interceptor
         */
        @Bean
        @ConditionalOnMissingBean
        @GlobalClientInterceptor
        DeadlineClientInterceptor deadlineClientInterceptor(OutboundProperties outbound) {
            return clientInterceptor(outbound);
        }
    }
}
