package io.github.resiliencestarter.autoconfigure.http;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.spring.http.DerivedIdempotencyKeyInterceptor;
import io.github.resiliencestarter.spring.http.TraceContextClientInterceptor;
import io.github.resiliencestarter.spring.http.TraceContextExchangeFilter;
import io.github.resiliencestarter.spring.http.TraceContextFeignInterceptor;
import org.springframework.context.annotation.Configuration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ClientHttpRequestInterceptor;

/**
 * The outbound propagation interceptors. Boot's client builders ({@code RestTemplateBuilder},
 * {@code RestClient.Builder}, {@code WebClient.Builder}) get them through customizers whose types
 * Boot 4 moved, so those live per line in {@code autoconfigure.boot3} and {@code autoconfigure.boot4}.
 */
@AutoConfiguration(after = TimeoutAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnClass(ClientHttpRequestInterceptor.class)
@ConditionalOnBooleanProperty(name = "resilience.outbound.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OutboundProperties.class)
public class OutboundHttpAutoConfiguration {

    /**
     * The interceptor.
     *
     * @param properties the bound properties
     * @param runtime the timeout runtime whose timer bounds calls, when timeouts are enabled
     * @return the interceptor
     */
    @Bean
    @ConditionalOnMissingBean
    public TraceContextClientInterceptor traceContextClientInterceptor(OutboundProperties properties,
            ObjectProvider<TimeoutRuntime> runtime) {
        return new TraceContextClientInterceptor(properties.getBudgetMargin(), runtime.getIfAvailable());
    }

    /**
     * Derives downstream idempotency keys inside {@code @Idempotent} executions; add it to the
     * clients that should send them ({@code builder.requestInterceptor(...)}).
     *
     * @return the interceptor
     */
    @Bean
    @ConditionalOnMissingBean
    public DerivedIdempotencyKeyInterceptor derivedIdempotencyKeyInterceptor() {
        return new DerivedIdempotencyKeyInterceptor();
    }

    /** WebClient, when Spring WebFlux is on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.web.reactive.function.client.WebClient")
    static class WebClientPropagation {

        /**
         * The propagation filter for {@code WebClient}.
         *
         * @param properties the bound properties
         * @return the filter
         */
        @Bean
        @ConditionalOnMissingBean
        TraceContextExchangeFilter traceContextExchangeFilter(OutboundProperties properties) {
            return new TraceContextExchangeFilter(properties.getBudgetMargin());
        }
    }

    /** OpenFeign, when it is on the classpath; Spring Cloud OpenFeign applies every interceptor bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "feign.RequestInterceptor")
    static class FeignPropagation {

        /**
         * The Feign request interceptor.
         *
         * @param properties the bound properties
         * @return the interceptor
         */
        @Bean
        @ConditionalOnMissingBean
        TraceContextFeignInterceptor traceContextFeignInterceptor(OutboundProperties properties) {
            return new TraceContextFeignInterceptor(properties.getBudgetMargin());
        }
    }
}
