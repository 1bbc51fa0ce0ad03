package io.github.resiliencestarter.autoconfigure.boot4;

import io.github.resiliencestarter.autoconfigure.chaos.ChaosAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.http.OutboundHttpAutoConfiguration;
import io.github.resiliencestarter.spring.chaos.ChaosClientInterceptor;
import io.github.resiliencestarter.spring.http.TraceContextClientInterceptor;
import io.github.resiliencestarter.spring.http.TraceContextExchangeFilter;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot 4.x: adds the trace-context interceptor to every {@code RestTemplate} and
 * {@code RestClient}, and the propagation filter to every {@code WebClient}, built from Boot's
 * builders.
 */
@AutoConfiguration(after = {OutboundHttpAutoConfiguration.class, ChaosAutoConfiguration.class})
@ConditionalOnResilienceEnabled
// a type only Boot 4 has in its core jar: the bridge of the other line never matches
@ConditionalOnClass(name = "org.springframework.boot.bootstrap.BootstrapRegistry")
public class Boot4HttpClientsAutoConfiguration {

    /** RestTemplate and RestClient, when Boot's support for them is on the classpath. */
    @Configuration(proxyBeanMethods = false)
    // the customizer's module needs spring-web, but a partial classpath must not load this class
    @ConditionalOnClass(name = {"org.springframework.boot.restclient.RestClientCustomizer",
        "org.springframework.http.client.ClientHttpRequestInterceptor"})
    static class RestClientPropagation {

        /**
         * Adds the interceptor to {@code RestTemplateBuilder}.
         *
         * @param interceptor the interceptor
         * @return the customizer
         */
        @Bean
        @ConditionalOnBean(TraceContextClientInterceptor.class)
        @ConditionalOnMissingBean(name = "traceContextRestTemplateCustomizer")
        RestTemplateCustomizer traceContextRestTemplateCustomizer(TraceContextClientInterceptor interceptor) {
            return restTemplate -> restTemplate.getInterceptors().add(interceptor);
        }

        /**
         * Adds the interceptor to {@code RestClient.Builder}.
         *
         * @param interceptor the interceptor
         * @return the customizer
         */
        @Bean
        @ConditionalOnBean(TraceContextClientInterceptor.class)
        @ConditionalOnMissingBean(name = "traceContextRestClientCustomizer")
        RestClientCustomizer traceContextRestClientCustomizer(TraceContextClientInterceptor interceptor) {
            return builder -> builder.requestInterceptor(interceptor);
        }

        /**
         * Adds the fault injector of {@code resilience.chaos} to {@code RestTemplateBuilder}.
         *
         * @param interceptor the interceptor
         * @return the customizer
         */
        @Bean
        @ConditionalOnBean(ChaosClientInterceptor.class)
        @ConditionalOnMissingBean(name = "chaosRestTemplateCustomizer")
        RestTemplateCustomizer chaosRestTemplateCustomizer(ChaosClientInterceptor interceptor) {
            return restTemplate -> restTemplate.getInterceptors().add(interceptor);
        }

        /**
         * Adds the fault injector of {@code resilience.chaos} to {@code RestClient.Builder}.
         *
         * @param interceptor the interceptor
         * @return the customizer
         */
        @Bean
        @ConditionalOnBean(ChaosClientInterceptor.class)
        @ConditionalOnMissingBean(name = "chaosRestClientCustomizer")
        RestClientCustomizer chaosRestClientCustomizer(ChaosClientInterceptor interceptor) {
            return builder -> builder.requestInterceptor(interceptor);
        }
    }

    /** WebClient, when Spring WebFlux and Boot's WebClient support are on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.web.reactive.function.client.WebClient",
        "org.springframework.boot.webclient.WebClientCustomizer"})
    static class WebClientPropagation {

        /**
         * Adds the propagation filter to {@code WebClient.Builder}.
         *
         * @param filter the filter
         * @return the customizer
         */
        @Bean
        @ConditionalOnBean(TraceContextExchangeFilter.class)
        @ConditionalOnMissingBean(name = "traceContextWebClientCustomizer")
        WebClientCustomizer traceContextWebClientCustomizer(TraceContextExchangeFilter filter) {
            return builder -> builder.filter(filter);
        }
    }
}
