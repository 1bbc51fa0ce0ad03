package io.github.resiliencestarter.autoconfigure;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodResolver;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.spring.aop.OperationGenerations;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

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
     * @param beanFactory where the application's packages are recorded
     * @return the validator
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public AnnotatedMethodValidator resilienceAnnotatedMethodValidator(
            ObjectProvider<AnnotatedMethodResolver> resolvers, BeanFactory beanFactory) {
        // the packages of @SpringBootApplication: where annotated classes that are not beans are looked for
        return new AnnotatedMethodValidator(resolvers, () -> AutoConfigurationPackages.has(beanFactory)
                ? AutoConfigurationPackages.get(beanFactory) : List.of());
    }

    /**
     * Refuses a start that still sets a renamed property under its old name (it would be ignored).
     *
     * @param environment the application's environment
     * @return the check, done
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static RenamedPropertiesChecked resilienceRenamedPropertiesChecked(Environment environment) {
        RenamedProperties.check(environment);
        return new RenamedPropertiesChecked();
    }

    /** The mark that {@link RenamedProperties#check} passed. */
    static final class RenamedPropertiesChecked {
    }

    /**
     * The generations of {@code @Timeout} and {@code @Retry} settings, shared by their sources so
     * that live tuning publishes both at once and one call never reads a mix of them.
     *
     * @return the generations
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static OperationGenerations resilienceOperationGenerations() {
        return new OperationGenerations(List.of(Timeout.class, Retry.class));
    }
}
