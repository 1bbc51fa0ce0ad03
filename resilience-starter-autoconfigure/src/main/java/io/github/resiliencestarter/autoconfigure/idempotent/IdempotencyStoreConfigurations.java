package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyProperties.StoreType;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.StartupRefusedException;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyPurger;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;

/**
 * One configuration per built-in idempotency store, imported in order of preference by
 * {@link IdempotencyAutoConfiguration} (the pattern of Spring Boot's cache configurations). Each
 * applies when its library is on the class path, the application has the bean it needs,
 * {@code resilience.idempotent.store} names it (or is {@code auto}), and no store bean exists yet.
 * With {@code auto} the first that applies wins: Redis, then JDBC, then memory.
 */
final class IdempotencyStoreConfigurations {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyStoreConfigurations.class);

    private static final String STORE_PROPERTY = "resilience.idempotent.store";

    private static final String INITIALIZE_SCHEMA_PROPERTY = "resilience.idempotent.jdbc.initialize-schema";

    private IdempotencyStoreConfigurations() {
    }

    /** Redis: the store for a cluster, on the application's {@link RedisConnectionFactory}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({RedisConnectionFactory.class, StringRedisTemplate.class})
    @ConditionalOnSingleCandidate(RedisConnectionFactory.class)
    @ConditionalOnMissingBean(IdempotencyStore.class)
    @Conditional(RedisSelected.class)
    static class Redis {

        @Bean
        @Lazy
        RedisIdempotencyStore idempotencyStore(RedisConnectionFactory connectionFactory,
                IdempotencyProperties properties, Environment environment,
                ObjectProvider<RedisClusterConfiguration> clusterConfiguration) {
            IdempotencyProperties.Redis redis = properties.getRedis();
            boolean lettuce = ClassUtils.isPresent(IdempotencyProperties.Redis.LETTUCE, null);
            boolean sentinel = environment.containsProperty("spring.data.redis.sentinel.master")
                    || (lettuce && LettuceTopology.isSentinel(connectionFactory));
            // on by default through Sentinel: a routine maintenance failover must not run keys twice
            RedisReplicaAcks acks = redis.toReplicaAcks(sentinel && lettuce);
            if (sentinel && !lettuce && !redis.isReplicaAcksSet()) {
                log.warn("Idempotency store: redis through Sentinel without Lettuce, so no write waits for replicas "
                        + "(Redis' WAIT is sent through Lettuce only): a failover may run a key a second time. Use "
                        + "Lettuce, Spring Boot's default client, or set resilience.idempotent.redis.replica-acks=0 "
                        + "to say this is meant (docs/idempotency.md).");
            }
            boolean cluster = environment.containsProperty("spring.data.redis.cluster.nodes")
                    || clusterConfiguration.getIfAvailable() != null;
            if (cluster && !acks.required() && !redis.isReplicaAcksSet()) {
                // not on by default: a cluster may have no replicas, and then every write would be refused
                log.warn("Idempotency store: redis on a Cluster, and no write waits for replicas: a failover may run "
                        + "a key a second time. Set resilience.idempotent.redis.replica-acks=all when every master "
                        + "has a replica, or 0 to say this is meant (docs/idempotency.md).");
            }
            log.info(acks.required() ? "Idempotency store: redis, each write acknowledged by " + acks.describe()
                    + " within " + acks.timeout().toMillis() + " ms" : "Idempotency store: redis");
            return new RedisIdempotencyStore(connectionFactory, acks);
        }
    }

    /** JDBC: a unique-key table in the application's database, completing inside its transactions. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JdbcTemplate.class)
    @ConditionalOnSingleCandidate(DataSource.class)
    @ConditionalOnMissingBean(IdempotencyStore.class)
    @Conditional(JdbcSelected.class)
    static class Jdbc {

        @Bean
        @Lazy
        @DependsOnDatabaseInitialization
        JdbcIdempotencyStore idempotencyStore(DataSource dataSource, IdempotencyProperties properties,
                ObjectProvider<PlatformTransactionManager> transactionManager) {
            IdempotencyProperties.Jdbc jdbc = properties.getJdbc();
            IdempotencyProperties.SchemaInitialization mode = jdbc.getInitializeSchema();
            if (mode == IdempotencyProperties.SchemaInitialization.ALWAYS
                    || (mode == IdempotencyProperties.SchemaInitialization.EMBEDDED
                    && EmbeddedDatabaseConnection.isEmbedded(dataSource))) {
                JdbcIdempotencySchema.create(dataSource, jdbc.getTable(), INITIALIZE_SCHEMA_PROPERTY);
            }
            JdbcIdempotencySchema.verify(dataSource, jdbc.getTable(), INITIALIZE_SCHEMA_PROPERTY);
            log.info("Idempotency store: jdbc");
            return new JdbcIdempotencyStore(dataSource, transactionManager.getIfUnique(), jdbc.getTable(),
                    TimeSource.SYSTEM);
        }
    }

    /** Memory: one JVM only, for development and tests; said loudly at start. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(IdempotencyStore.class)
    @Conditional(MemorySelected.class)
    static class Memory {

        @Bean
        @Lazy
        InMemoryIdempotencyStore idempotencyStore() {
            log.warn("Idempotency store: memory. Records live in this JVM only: duplicates reaching another node, "
                    + "or arriving after a restart, execute again. Add Redis or a DataSource for a cluster.");
            return new InMemoryIdempotencyStore();
        }
    }

    /** A store named explicitly whose library or bean is missing: fail the start and say what is missing. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(IdempotencyStore.class)
    static class Unavailable {

        @Bean
        @Lazy
        IdempotencyStore idempotencyStore(IdempotencyProperties properties) {
            boolean redis = properties.getStore() == StoreType.REDIS;
            String needed = redis ? "spring-data-redis and a single RedisConnectionFactory bean"
                    : "spring-jdbc and a single DataSource bean";
            throw new StartupRefusedException(STORE_PROPERTY + "=" + properties.getStore().name().toLowerCase()
                    + " needs " + needed + "; none was found.", redis
                    ? "Add spring-boot-starter-data-redis and point spring.data.redis.* at the server, or choose "
                    + "another store (" + STORE_PROPERTY + "=jdbc, or auto)."
                    : "Add spring-boot-starter-jdbc with a DataSource (spring.datasource.*), or choose another store ("
                    + STORE_PROPERTY + "=redis, or auto).");
        }
    }

    /** Purges expired rows of the JDBC store, built here or by the application; imported after the stores. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JdbcTemplate.class)
    static class JdbcPurge {

        @Bean
        @ConditionalOnSingleCandidate(JdbcIdempotencyStore.class)
        @ConditionalOnMissingBean
        JdbcIdempotencyPurger jdbcIdempotencyPurger(IdempotencyActivation activation,
                IdempotencyProperties properties) {
            IdempotencyProperties.Jdbc jdbc = properties.getJdbc();
            // purges nothing until an @Idempotent method made the store exist
            return new JdbcIdempotencyPurger(() -> activation.storeIfActive() instanceof JdbcIdempotencyStore jdbcStore
                    ? jdbcStore : null, jdbc.getPurgeInterval(), jdbc.getPurgeBatchSize());
        }
    }

    /** Matches when the configured store type is one of those given, {@code auto} included when asked. */
    abstract static class StoreSelected extends SpringBootCondition {

        private final StoreType type;

        StoreSelected(StoreType type) {
            this.type = type;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            StoreType configured = Binder.get(context.getEnvironment()).bind(STORE_PROPERTY, StoreType.class)
                    .orElse(StoreType.AUTO);
            if (configured == type || configured == StoreType.AUTO) {
                return ConditionOutcome.match(STORE_PROPERTY + " is " + configured.name().toLowerCase());
            }
            return ConditionOutcome.noMatch(STORE_PROPERTY + " is " + configured.name().toLowerCase());
        }
    }

    static final class RedisSelected extends StoreSelected {

        RedisSelected() {
            super(StoreType.REDIS);
        }
    }

    static final class JdbcSelected extends StoreSelected {

        JdbcSelected() {
            super(StoreType.JDBC);
        }
    }

    static final class MemorySelected extends StoreSelected {

        MemorySelected() {
            super(StoreType.MEMORY);
        }
    }
}
