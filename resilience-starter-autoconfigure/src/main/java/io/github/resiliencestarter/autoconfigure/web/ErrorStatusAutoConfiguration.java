package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.spring.web.ResilienceStatusResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The status of the starter's errors in servlet applications whose problem-details handler is off
 * or bypassed: a 400 stays a 400 on Boot's error page.
 */
@AutoConfiguration
@ConditionalOnResilienceEnabled
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
public class ErrorStatusAutoConfiguration {

    /**
     * The last resolver for the starter's errors.
     *
     * @return the resolver
     */
    @Bean
    @ConditionalOnMissingBean
    public ResilienceStatusResolver resilienceStatusResolver() {
        return new ResilienceStatusResolver();
    }
}
