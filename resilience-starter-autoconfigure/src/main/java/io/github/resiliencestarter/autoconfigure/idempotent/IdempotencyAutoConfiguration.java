package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyObserver;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreDecorator;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcTransactionalCompletionRegistrar;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.spring.aop.IdempotentInterceptor;
import io.github.resiliencestarter.spring.aop.IdempotentOperationSource;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.idempotent.IdempotencyScopeResolver;
import io.github.resiliencestarter.spring.idempotent.PrincipalScopeResolver;
import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import io.github.resiliencestarter.spring.idempotent.ResponseEntityCodec;
import java.time.Clock;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Applies {@code @Idempotent}. The store is chosen once at start from
 * {@code resilience.idempotent.store} ({@code auto}: Redis, else JDBC, else memory with a warning)
 * and logged; any {@link IdempotencyStore} bean of the application replaces it.
 */
@AutoConfiguration(after = {ResilienceAutoConfiguration.class, RedisAutoConfiguration.class,
    DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class},
        before = RetryAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnBooleanProperty(name = "resilience.idempotent.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
public class IdempotencyAutoConfiguration {

    private static final boolean WEB = ClassUtils.isPresent("org.springframework.http.ResponseEntity",
            IdempotencyAutoConfiguration.class.getClassLoader());

    /**
     * The store, chosen from the configuration and what the application has.
     *
     * @param properties the bound properties
     * @param beanFactory where Redis and JDBC beans are looked up
     * @return the store
     */
    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public IdempotencyStore idempotencyStore(IdempotencyProperties properties, BeanFactory beanFactory) {
        return IdempotencyStoreSelector.select(properties, beanFactory);
    }

    /**
     * Encodes results for replay; {@code ResponseEntity} keeps its status and allow-listed headers.
     *
     * @param properties the bound properties
     * @return the codec
     */
    @Bean
    @ConditionalOnMissingBean
    public ResponseCodec idempotencyResponseCodec(IdempotencyProperties properties) {
        Fastjson2ResponseCodec json = new Fastjson2ResponseCodec();
        return WEB ? Web.codec(json, properties) : json;
    }

    /** Kept apart so spring-web is loaded only when present. */
    private static final class Web {

        static ResponseCodec codec(ResponseCodec json, IdempotencyProperties properties) {
            return new ResponseEntityCodec(json, new ReplayHeaders(properties.getReplayHeaders(),
                    properties.getReplayHeadersByName()));
        }
    }

    /**
     * Scopes keys by the authenticated principal.
     *
     * @return the resolver
     */
    @Bean
    @ConditionalOnMissingBean
    public IdempotencyScopeResolver idempotencyScopeResolver() {
        return new PrincipalScopeResolver();
    }

    /**
     * Runs idempotent calls on the store.
     *
     * @param store the store
     * @param codec the codec
     * @param observer hears outcomes, when one is defined
     * @param decorator wraps the store for the executor (metrics), when one is defined
     * @return the executor
     */
    @Bean
    @ConditionalOnMissingBean
    public IdempotentExecutor idempotentExecutor(IdempotencyStore store, ResponseCodec codec,
            ObjectProvider<IdempotencyObserver> observer, ObjectProvider<IdempotencyStoreDecorator> decorator) {
        IdempotencyStoreDecorator wrap = decorator.getIfAvailable(() -> plain -> plain);
        return IdempotentExecutor.builder(wrap.decorate(store)).codec(codec)
                .observer(IdempotencyObserver.composite(observer.orderedStream().toList())).build();
    }

    /**
     * Resolves {@code @Idempotent} per method.
     *
     * @param properties the bound properties
     * @param executor the executor, looked up lazily
     * @param beanFactory resolves placeholders in annotation values
     * @return the source
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public IdempotentOperationSource idempotentOperationSource(IdempotencyProperties properties,
            ObjectProvider<IdempotentExecutor> executor, ConfigurableBeanFactory beanFactory) {
        IdempotencyConfig config = properties.toConfig();
        return new IdempotentOperationSource(config, executor::getObject, new EmbeddedValueResolver(beanFactory));
    }

    /**
     * The advisor that applies {@code @Idempotent}, inside {@code @Timeout} and outside {@code @Retry}.
     *
     * @param source the per-method settings, looked up on first use
     * @param scopes the caller's scope, looked up on first use
     * @param properties the bound properties, looked up on first use
     * @return the advisor
     */
    @Bean
    @ConditionalOnMissingBean(name = "idempotentAdvisor")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static ResilienceAnnotationAdvisor idempotentAdvisor(ObjectProvider<IdempotentOperationSource> source,
            ObjectProvider<IdempotencyScopeResolver> scopes, ObjectProvider<IdempotencyProperties> properties) {
        return new ResilienceAnnotationAdvisor(Idempotent.class, () -> new IdempotentInterceptor(source.getObject(),
                scopes.getObject(), properties.getObject().getKeyHeader()), ResilienceAdvisorOrder.IDEMPOTENT);
    }

    /**
     * Tells the retry safety gate that {@code @Idempotent} methods are safe to retry.
     *
     * @return the marker
     */
    @Bean
    public RetryAutoConfiguration.IdempotencyMarker idempotentRetryMarker() {
        return () -> Idempotent.class;
    }

    /** The JDBC store's companions: in-transaction completion and the purge job. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.jdbc.datasource.DataSourceTransactionManager")
    static class JdbcCompanions {

        /**
         * Records completions inside the business transaction of the store's DataSource.
         *
         * @param stores the store, looked up lazily
         * @param environment read directly: a post-processor is created before properties beans
         * @return the registrar
         */
        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static JdbcTransactionalCompletionRegistrar jdbcTransactionalCompletionRegistrar(
                ObjectProvider<IdempotencyStore> stores, Environment environment) {
            return new JdbcTransactionalCompletionRegistrar(stores, Clock.systemUTC(), environment.getProperty(
                    JdbcTransactionalCompletionRegistrar.REQUIRE_PROPERTY, Boolean.class, false));
        }

        /**
         * Purges expired rows when the store is the JDBC store.
         *
         * @param store the store
         * @param properties the bound properties
         * @return the purger, or {@code null} when the store is not JDBC or the purge is off
         */
        @Bean
        @ConditionalOnMissingBean
        JdbcIdempotencyPurger jdbcIdempotencyPurger(IdempotencyStore store, IdempotencyProperties properties) {
            IdempotencyProperties.Jdbc jdbc = properties.getJdbc();
            if (!(store instanceof JdbcIdempotencyStore jdbcStore) || jdbc.getPurgeInterval().isZero()
                    || jdbc.getPurgeInterval().isNegative()) {
                return null;
            }
            return new JdbcIdempotencyPurger(jdbcStore, jdbc.getPurgeInterval(), jdbc.getPurgeBatchSize());
        }
    }
}
