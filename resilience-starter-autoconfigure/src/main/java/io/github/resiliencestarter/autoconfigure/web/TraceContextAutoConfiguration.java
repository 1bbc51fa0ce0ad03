package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.spring.web.CallerScopeFilter;
import io.github.resiliencestarter.spring.web.RequestContextPropagator;
import io.github.resiliencestarter.spring.web.RetryExhaustedMarker;
import io.github.resiliencestarter.spring.web.TraceContextFilter;
import io.github.resiliencestarter.spring.web.TraceMdcCleanup;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Opens a trace context for every servlet request and carries Spring's request state to timeout
 * workers.
 */
@AutoConfiguration
@ConditionalOnResilienceEnabled
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RequestContextHolder.class)
@EnableConfigurationProperties({TraceProperties.class, ProblemsProperties.class})
public class TraceContextAutoConfiguration {

    /**
     * The inbound trace filter, registered for every request.
     *
     * @param properties the bound properties
     * @param problems what the filter's 504 problem's type begins with
     * @param tracerIds the tracer's trace ids, when a tracer runs
     * @return the filter registration
     */
    @Bean
    @ConditionalOnMissingBean(TraceContextFilter.class)
    @ConditionalOnBooleanProperty(name = "resilience.trace.enabled", matchIfMissing = true)
    public FilterRegistrationBean<TraceContextFilter> traceContextFilter(TraceProperties properties,
            ProblemsProperties problems, ObjectProvider<TraceIdSource> tracerIds) {
        TraceContextFilter filter = new TraceContextFilter(properties.toInbound(tracerIds.getIfAvailable()));
        filter.setOrder(properties.getFilterOrder());
        filter.setProblemTypeBase(problems.getTypeBase());
        FilterRegistrationBean<TraceContextFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setOrder(properties.getFilterOrder());
        registration.setName("resilienceTraceContextFilter");
        return registration;
    }

    /**
     * Records the authenticated caller in the trace context after Spring Security, so idempotency
     * keys are scoped to the caller on every thread the context reaches.
     *
     * @return the filter registration
     */
    @Bean
    @ConditionalOnMissingBean(CallerScopeFilter.class)
    public FilterRegistrationBean<CallerScopeFilter> callerScopeFilter() {
        CallerScopeFilter filter = new CallerScopeFilter();
        FilterRegistrationBean<CallerScopeFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setOrder(filter.getOrder());
        registration.setName("resilienceCallerScopeFilter");
        return registration;
    }

    /**
     * Clears the trace id the filter keeps in the MDC after a failure, for the container's log
     * line, once the request is over.
     *
     * @return the listener, registered with the servlet container by Spring Boot
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "resilience.trace.enabled", matchIfMissing = true)
    public TraceMdcCleanup traceMdcCleanup() {
        return new TraceMdcCleanup();
    }

    /**
     * Marks error responses whose failure was already retried here, so callers do not retry again.
     *
     * @return the marker
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
    public RetryExhaustedMarker retryExhaustedMarker() {
        return new RetryExhaustedMarker();
    }

    /**
     * Carries request attributes and locale to timeout workers.
     *
     * @return the propagator
     */
    @Bean
    @ConditionalOnMissingBean
    public RequestContextPropagator requestContextPropagator() {
        return new RequestContextPropagator();
    }
}
