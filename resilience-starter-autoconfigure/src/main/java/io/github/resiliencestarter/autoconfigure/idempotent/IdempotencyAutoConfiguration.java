package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.propagation.ApplicationPropagators;
import io.github.resiliencestarter.autoconfigure.SecuredApplication;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.core.ContextPropagator;
import io.github.resiliencestarter.idempotent.ClientErrorReplay;
import io.github.resiliencestarter.idempotent.EntryPointCaller;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyObserver;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreDecorator;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.PayloadProtection;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import io.github.resiliencestarter.idempotent.jdbc.JdbcTransactionalCompletionRegistrar;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.rollout.Rollouts;
import io.github.resiliencestarter.spring.aop.IdempotencyMarker;
import io.github.resiliencestarter.spring.aop.IdempotentInterceptor;
import io.github.resiliencestarter.spring.aop.IdempotentOperationSource;
import io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder;
import io.github.resiliencestarter.spring.aop.ResilienceAnnotationAdvisor;
import io.github.resiliencestarter.spring.idempotent.HttpClientErrorReplay;
import io.github.resiliencestarter.spring.idempotent.IdempotencyScopeResolver;
import io.github.resiliencestarter.spring.idempotent.PrincipalScopeResolver;
import io.github.resiliencestarter.spring.idempotent.ProtobufResponseCodec;
import io.github.resiliencestarter.spring.idempotent.ReplayHeaders;
import io.github.resiliencestarter.spring.idempotent.ResponseEntityCodec;
import java.util.Set;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.util.ClassUtils;

/**
 * Applies {@code @Idempotent}. The store is chosen once at start by
 * {@link IdempotencyStoreConfigurations} from {@code resilience.idempotent.store} ({@code auto}:
 * Redis, else JDBC, else memory with a warning) and logged; any {@link IdempotencyStore} bean of
 * the application replaces it, and every other bean here backs off when the application defines
 * its own.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class, before = RetryAutoConfiguration.class, afterName = {
    // by name, for both Boot lines: Boot 4 moved each of these (the Boot 3 name comes first)
    "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
    "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
    "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
    "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
    "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration"})
@ConditionalOnResilienceEnabled
@ConditionalOnBooleanProperty(name = "resilience.idempotent.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdempotencyProperties.class)
@Import({IdempotencyStoreConfigurations.Redis.class, IdempotencyStoreConfigurations.Jdbc.class,
    IdempotencyStoreConfigurations.Memory.class, IdempotencyStoreConfigurations.Unavailable.class,
    IdempotencyStoreConfigurations.JdbcPurge.class})
public class IdempotencyAutoConfiguration {

    /**
     * Encodes results for replay as JSON (applications without spring-web).
     *
     * @return the codec
     */
    @Bean
    @ConditionalOnMissingBean
    public ResponseCodec idempotencyResponseCodec() {
        return dataCodec();
    }

    /**
     * The codec of results as data: JSON, protobuf messages (gRPC answers) as their wire bytes when
     * protobuf-java is present.
     */
    static ResponseCodec dataCodec() {
        ResponseCodec json = new Fastjson2ResponseCodec();
        return ClassUtils.isPresent("com.google.protobuf.MessageLite", IdempotencyAutoConfiguration.class.getClassLoader())
                ? new ProtobufResponseCodec(json) : json;
    }

    /** In web applications a replayed {@code ResponseEntity} keeps its status and allow-listed headers. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ResponseEntity.class)
    static class WebResponseCodecConfiguration {

        /**
         * Encodes results for replay; {@code ResponseEntity} keeps its status and allow-listed headers.
         *
         * @param properties the bound properties
         * @return the codec
         */
        @Bean
        @ConditionalOnMissingBean
        ResponseCodec idempotencyResponseCodec(IdempotencyProperties properties) {
            return new ResponseEntityCodec(dataCodec(), new ReplayHeaders(
                    properties.getReplayHeaders(), properties.getReplayHeadersByName()));
        }

        /**
         * Tells a 4xx failure from others, so that duplicates get it replayed.
         *
         * @return the client errors of Spring MVC and WebFlux
         */
        @Bean
        @ConditionalOnMissingBean
        ClientErrorReplay idempotencyClientErrors() {
            return new HttpClientErrorReplay();
        }
    }

    /**
     * Scopes keys by the authenticated principal, as an entry point knows it (a gRPC call's) or the
     * thread does; in an application with a Spring Security filter chain, a call whose caller
     * cannot be resolved fails closed.
     *
     * @param beans the context, asked whether a security filter chain is defined
     * @param entryPoints callers entry points know beyond the thread's holders
     * @return the resolver
     */
    @Bean
    @ConditionalOnMissingBean
    public IdempotencyScopeResolver idempotencyScopeResolver(ListableBeanFactory beans,
            ObjectProvider<EntryPointCaller> entryPoints) {
        return new PrincipalScopeResolver(SecuredApplication.hasSecurityFilterChain(beans),
                entryPoints.orderedStream().toList());
    }


    /**
     * Whether {@code @Idempotent} is in use; creates the store and the executor with the first
     * annotated method resolved, and not before.
     *
     * @param executor the executor bean, created on demand
     * @return the activation
     */
    @Bean
    @ConditionalOnMissingBean
    public IdempotencyActivation idempotencyActivation(ObjectProvider<IdempotentExecutor> executor) {
        return new IdempotencyActivation(executor::getObject);
    }

    /**
     * Which {@code @Idempotent} names enforce their duplicate handling and which only observe it,
     * for which share of keys ({@code resilience.idempotent.mode}, {@code rollout},
     * {@code instances.<name>.*}); replaced as a whole by live tuning.
     *
     * @param properties the bound properties
     * @return the rollouts
     */
    @Bean
    @ConditionalOnMissingBean(name = "idempotencyRollouts")
    public Rollouts idempotencyRollouts(IdempotencyProperties properties) {
        Rollouts rollouts = Rollouts.enforceAll();
        rollouts.prepare(properties.defaultRollout(), properties.namedRollouts()).run();
        return rollouts;
    }

    /**
     * Live tuning of the mode and rollout of {@code @Idempotent} (the other idempotency settings
     * take effect at the next start).
     *
     * @param rollouts the rollouts
     * @return the tunable group
     */
    @Bean
    @ConditionalOnMissingBean
    public IdempotencyRolloutTuning idempotencyRolloutTuning(@Qualifier("idempotencyRollouts") Rollouts rollouts) {
        return new IdempotencyRolloutTuning(rollouts);
    }

    /**
     * Runs idempotent calls on the store. Lazy, as the store: created when the first
     * {@code @Idempotent} method is resolved ({@link IdempotencyActivation}).
     *
     * @param store the store
     * @param codec the codec
     * @param observer hears outcomes, when one is defined
     * @param decorator wraps the store for the executor (metrics), when one is defined
     * @param properties the near cache settings
     * @param activation told that the store now exists
     * @param clientErrors tells a client's failure from others, when the web stack is there
     * @param protection how stored responses look at rest, when the application defines it
     * @param rollouts which names enforce and which only observe
     * @param propagators what an asynchronous duplicate's wait carries to the polls that may start its work
     * @return the executor
     */
    @Bean
    @Lazy
    @ConditionalOnMissingBean
    public IdempotentExecutor idempotentExecutor(IdempotencyStore store, ResponseCodec codec,
            ObjectProvider<IdempotencyObserver> observer, ObjectProvider<IdempotencyStoreDecorator> decorator,
            IdempotencyProperties properties, IdempotencyActivation activation,
            ObjectProvider<ClientErrorReplay> clientErrors, ObjectProvider<PayloadProtection> protection,
            @Qualifier("idempotencyRollouts") Rollouts rollouts, ObjectProvider<ContextPropagator> propagators) {
        IdempotencyStoreDecorator wrap = decorator.getIfAvailable(() -> plain -> plain);
        // the near cache goes outermost: the store's own metrics then count only real round trips
        IdempotentExecutor executor = IdempotentExecutor.builder(properties.getNearCache().wrap(wrap.decorate(store)),
                codec).observer(IdempotencyObserver.composite(observer.orderedStream().toList()))
                .clientErrors(clientErrors.getIfAvailable(() -> ClientErrorReplay.NONE))
                .payloadProtection(protection.getIfAvailable(() -> properties.getEncryption().toProtection()))
                .rollouts(rollouts).contextPropagator(ApplicationPropagators.of(propagators)).build();
        activation.activated(store, executor);
        return executor;
    }

    /**
     * Resolves {@code @Idempotent} per method.
     *
     * @param properties the bound properties
     * @param activation creates the executor with the first method resolved
     * @param beanFactory resolves placeholders in annotation values
     * @return the source
     */
    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public IdempotentOperationSource idempotentOperationSource(IdempotencyProperties properties,
            ObjectProvider<IdempotencyActivation> activation, ConfigurableBeanFactory beanFactory) {
        IdempotencyConfig config = properties.toConfig();
        return new IdempotentOperationSource(config, () -> activation.getObject().executor(),
                new EmbeddedValueResolver(beanFactory), Set.copyOf(properties.getKeyOptional()));
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
    @ConditionalOnMissingBean(name = "idempotentRetryMarker")
    public IdempotencyMarker idempotentRetryMarker() {
        return () -> Idempotent.class;
    }

    /** Completion inside the business transactions of the JDBC store's DataSource (rule I-P6). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataSourceTransactionManager.class)
    static class JdbcCompanionsConfiguration {

        /**
         * Records completions inside the business transaction of the store's DataSource.
         *
         * @param activation the store once in use, looked up lazily
         * @param environment read directly: a post-processor is created before properties beans
         * @return the registrar
         */
        @Bean
        @ConditionalOnMissingBean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static JdbcTransactionalCompletionRegistrar jdbcTransactionalCompletionRegistrar(
                ObjectProvider<IdempotencyActivation> activation, Environment environment) {
            return new JdbcTransactionalCompletionRegistrar(activation, environment.getProperty(
                    JdbcTransactionalCompletionRegistrar.REQUIRE_PROPERTY, Boolean.class, false));
        }

    }
}
