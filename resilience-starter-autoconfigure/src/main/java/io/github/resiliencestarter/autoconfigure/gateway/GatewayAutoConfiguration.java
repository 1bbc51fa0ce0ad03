package io.github.resiliencestarter.autoconfigure.gateway;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.http.OutboundProperties;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyProperties;
import io.github.resiliencestarter.autoconfigure.web.ProblemsProperties;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.spring.gateway.DeadlineGatewayFilterFactory;
import io.github.resiliencestarter.spring.gateway.IdempotencyKeyGatewayFilterFactory;
import io.github.resiliencestarter.spring.idempotent.IdempotencyScopeResolver;
import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Cloud Gateway (reactive): the {@code Deadline} and {@code IdempotencyKey} route filters,
 * for the routes that name them (docs/gateway.md). Nothing changes for a route that does not; the
 * inbound filter of a reactive application already reads, caps and checks every request's budget
 * and trace id at the gateway.
 */
@AutoConfiguration(after = {ResilienceAutoConfiguration.class, IdempotencyAutoConfiguration.class})
@ConditionalOnResilienceEnabled
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(name = "org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory")
@EnableConfigurationProperties({OutboundProperties.class, ProblemsProperties.class})
public class GatewayAutoConfiguration {

    /**
     * The {@code Deadline} route filter.
     *
     * @param outbound the margin kept back from the budget sent downstream
     * @param problems what problem types begin with
     * @return the factory
     */
    @Bean
    @ConditionalOnMissingBean
    public DeadlineGatewayFilterFactory deadlineGatewayFilterFactory(OutboundProperties outbound,
            ProblemsProperties problems) {
        return new DeadlineGatewayFilterFactory(outbound.getBudgetMargin(), problems.getTypeBase());
    }

    /**
     * The {@code IdempotencyKey} route filter, on the store {@code @Idempotent} uses.
     *
     * @param activation creates the store and the executor on first use
     * @param properties the idempotency settings
     * @param scopes names the caller's scope
     * @param problems what problem types begin with
     * @return the factory
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(IdempotencyActivation.class)
    public IdempotencyKeyGatewayFilterFactory idempotencyKeyGatewayFilterFactory(
            ObjectProvider<IdempotencyActivation> activation, IdempotencyProperties properties,
            IdempotencyScopeResolver scopes, ProblemsProperties problems) {
        return new IdempotencyKeyGatewayFilterFactory(() -> activation.getObject().executor(), properties.toConfig(),
                scopes, new ReplayHeaders(properties.getReplayHeaders(), properties.getReplayHeadersByName()),
                properties.getKeyHeader(), problems.getTypeBase(), properties.getMaxRequestBytes());
    }
}
