package io.github.resiliencestarter.autoconfigure.web;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.spring.web.ResilienceExceptionHandler;
import io.github.resiliencestarter.spring.web.TraceProblemAdvice;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Renders the starter's errors as RFC 9457 problem details in servlet MVC applications, and puts
 * the trace id on every other problem the application answers.
 */
@AutoConfiguration
@ConditionalOnResilienceEnabled
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty(name = "resilience.problems.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ProblemsProperties.class)
public class ProblemDetailsAutoConfiguration {

    /**
     * The exception handler.
     *
     * @param properties what problem details may tell
     * @return the handler
     */
    @Bean
    @ConditionalOnMissingBean
    public ResilienceExceptionHandler resilienceExceptionHandler(ProblemsProperties properties) {
        return new ResilienceExceptionHandler(properties.isIncludeOperation(), properties.getTypeBase());
    }

    /**
     * The trace id on every problem, Spring's own included, and the invalid fields on validation
     * problems.
     *
     * @return the advice
     */
    @Bean
    @ConditionalOnMissingBean
    public TraceProblemAdvice traceProblemAdvice() {
        return new TraceProblemAdvice();
    }
}
