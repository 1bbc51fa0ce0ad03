package io.github.resiliencestarter.autoconfigure;

import io.github.resiliencestarter.spring.aop.AnnotatedMethodResolver;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;

/**
 * The parts every annotation shares: an auto-proxy creator (registered if the application has
 * none, the way {@code @EnableTransactionManagement} does) and the startup check of annotated
 * methods.
 */
@AutoConfiguration
@ConditionalOnResilienceEnabled
@EnableConfigurationProperties(ResilienceProperties.class)
@Import(ResilienceProxyRegistrar.class)
public class ResilienceAutoConfiguration {

    /**
     * Resolves every annotated method at startup so invalid settings fail the start.
     *
     * @param resolvers the resolvers of the annotations in use
     * @return the validator
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public AnnotatedMethodValidator resilienceAnnotatedMethodValidator(
            ObjectProvider<AnnotatedMethodResolver> resolvers) {
        return new AnnotatedMethodValidator(resolvers);
    }
}
