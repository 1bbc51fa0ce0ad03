package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.propagation.PropagationAutoConfiguration;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.spring.webflux.CallerScopeWebFilter;
import io.github.resiliencestarter.spring.webflux.ReactiveRequest;
import io.github.resiliencestarter.spring.webflux.ReactiveResilienceExceptionHandler;
import io.github.resiliencestarter.spring.webflux.TraceContextWebFilter;
import io.micrometer.context.ContextRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Hooks;

/**
 * Spring WebFlux: the inbound trace filter, the caller's scope after Spring Security, and the
 * problem responses. The request's state reaches its handler through Reactor's context, so
 * Reactor's automatic context propagation is switched on (as {@code spring.reactor.context-propagation=auto}
 * does); without it a handler running on another thread would see no deadline (docs/async.md).
 */
@AutoConfiguration(after = PropagationAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({WebFilter.class, Hooks.class, ContextRegistry.class})
@EnableConfigurationProperties({TraceProperties.class, ProblemsProperties.class})
public class ReactiveWebAutoConfiguration {

    /**
     * The inbound trace filter; also registers the reactive request with Micrometer's context
     * registry and switches on automatic context propagation.
     *
     * @param properties the bound properties
     * @param problems what the filter's 504 problem's type begins with
     * @param tracerIds the tracer's trace ids, when a tracer runs
     * @return the filter
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "resilience.trace.enabled", matchIfMissing = true)
    public TraceContextWebFilter traceContextWebFilter(TraceProperties properties, ProblemsProperties problems,
            ObjectProvider<TraceIdSource> tracerIds) {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new ReactiveRequest.Accessor());
        Hooks.enableAutomaticContextPropagation();
        TraceContextWebFilter filter = new TraceContextWebFilter(properties.toInbound(tracerIds.getIfAvailable()));
        filter.setOrder(properties.getFilterOrder());
        filter.setProblemTypeBase(problems.getTypeBase());
        return filter;
    }

    /**
     * Records the authenticated caller for idempotency scopes, after Spring Security.
     *
     * @return the filter
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "resilience.trace.enabled", matchIfMissing = true)
    public CallerScopeWebFilter callerScopeWebFilter() {
        return new CallerScopeWebFilter();
    }

    /**
     * The starter's errors as problem details.
     *
     * @param properties what problem details may tell
     * @return the advice
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "resilience.problems.enabled", matchIfMissing = true)
    public ReactiveResilienceExceptionHandler reactiveResilienceExceptionHandler(ProblemsProperties properties) {
        return new ReactiveResilienceExceptionHandler(properties.isIncludeOperation(), properties.getTypeBase());
    }
}
