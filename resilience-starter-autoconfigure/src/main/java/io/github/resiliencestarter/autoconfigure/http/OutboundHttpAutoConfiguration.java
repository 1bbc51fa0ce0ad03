package io.github.resiliencestarter.autoconfigure.http;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.spring.http.DerivedIdempotencyKeyInterceptor;
import io.github.resiliencestarter.spring.http.TraceContextClientInterceptor;
import io.github.resiliencestarter.spring.http.TraceContextExchangeFilter;
import io.github.resiliencestarter.spring.http.TraceContextFeignInterceptor;
import org.springframework.boot.web.reactive.function.client.WebClientCustomizer;
import org.springframework.context.annotation.Configuration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.client.RestClientCustomizer;
import org.springframework.boot.web.client.RestTemplateCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ClientHttpRequestInterceptor;

/**
 * Adds the trace-context interceptor to every {@code RestTemplate} and {@code RestClient} built
 * from Boot's builders.
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

    /**
     * Adds the interceptor to {@code RestTemplateBuilder}.
     *
     * @param interceptor the interceptor
     * @return the customizer
     */
    @Bean
    @ConditionalOnMissingBean(name = "traceContextRestTemplateCustomizer")
    public RestTemplateCustomizer traceContextRestTemplateCustomizer(TraceContextClientInterceptor interceptor) {
        return restTemplate -> restTemplate.getInterceptors().add(interceptor);
    }

    /**
     * Adds the interceptor to {@code RestClient.Builder}.
     *
     * @param interceptor the interceptor
     * @return the customizer
     */
    @Bean
    @ConditionalOnMissingBean(name = "traceContextRestClientCustomizer")
    public RestClientCustomizer traceContextRestClientCustomizer(TraceContextClientInterceptor interceptor) {
        return builder -> builder.requestInterceptor(interceptor);
    }

    /** WebClient, when Spring WebFlux is on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.web.reactive.function.client.WebClient",
        "org.springframework.boot.web.reactive.function.client.WebClientCustomizer"})
    static class WebClientPropagation {

        /**
         * Adds the propagation filter to {@code WebClient.Builder}.
         *
         * @param properties the bound properties
         * @return the customizer
         */
        @Bean
        @ConditionalOnMissingBean(name = "traceContextWebClientCustomizer")
        WebClientCustomizer traceContextWebClientCustomizer(OutboundProperties properties) {
            TraceContextExchangeFilter filter = new TraceContextExchangeFilter(properties.getBudgetMargin());
            return builder -> builder.filter(filter);
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
