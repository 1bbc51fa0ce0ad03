package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import java.time.Clock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;

/** Picks and builds the idempotency store, and says which one at start. */
final class IdempotencyStoreSelector {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyStoreSelector.class);

    private static final ClassLoader LOADER = IdempotencyStoreSelector.class.getClassLoader();

    private static final boolean REDIS = ClassUtils.isPresent(
            "org.springframework.data.redis.connection.RedisConnectionFactory", LOADER);

    private static final boolean JDBC = ClassUtils.isPresent("org.springframework.jdbc.core.JdbcTemplate", LOADER);

    private IdempotencyStoreSelector() {
    }

    static IdempotencyStore select(IdempotencyProperties properties, BeanFactory beans) {
        IdempotencyProperties.StoreType type = properties.getStore();
        if (type == IdempotencyProperties.StoreType.AUTO) {
            type = REDIS && Redis.available(beans) ? IdempotencyProperties.StoreType.REDIS
                    : JDBC && beans.getBeanProvider(DataSource.class).getIfUnique() != null
                            ? IdempotencyProperties.StoreType.JDBC : IdempotencyProperties.StoreType.MEMORY;
        }
        IdempotencyStore store = switch (type) {
            case REDIS -> Redis.store(beans);
            case JDBC -> jdbc(properties, beans);
            default -> new InMemoryIdempotencyStore();
        };
        if (store instanceof InMemoryIdempotencyStore) {
            log.warn("Idempotency store: memory. Records live in this JVM only: duplicates reaching another node, "
                    + "or arriving after a restart, execute again. Add Redis or a DataSource for a cluster.");
        } else {
            log.info("Idempotency store: {}", type.name().toLowerCase());
        }
        return store;
    }

    private static IdempotencyStore jdbc(IdempotencyProperties properties, BeanFactory beans) {
        DataSource dataSource = beans.getBeanProvider(DataSource.class).getIfUnique();
        if (dataSource == null) {
            throw new IllegalStateException("resilience.idempotent.store=jdbc needs a single DataSource bean");
        }
        IdempotencyProperties.Jdbc jdbc = properties.getJdbc();
        DatabaseInitializationMode mode = jdbc.getInitializeSchema();
        if (mode == DatabaseInitializationMode.ALWAYS || (mode == DatabaseInitializationMode.EMBEDDED
                && EmbeddedDatabaseConnection.isEmbedded(dataSource))) {
            JdbcIdempotencySchema.create(dataSource, jdbc.getTable());
        }
        JdbcIdempotencySchema.verify(dataSource, jdbc.getTable(), "resilience.idempotent.jdbc.initialize-schema");
        PlatformTransactionManager transactions = beans.getBeanProvider(PlatformTransactionManager.class)
                .getIfUnique();
        return new JdbcIdempotencyStore(dataSource, transactions, jdbc.getTable(), Clock.systemUTC());
    }

    /** Kept apart so Spring Data Redis is loaded only when present. */
    private static final class Redis {

        static boolean available(BeanFactory beans) {
            return beans.getBeanProvider(RedisConnectionFactory.class).getIfUnique() != null;
        }

        static IdempotencyStore store(BeanFactory beans) {
            RedisConnectionFactory factory = beans.getBeanProvider(RedisConnectionFactory.class).getIfUnique();
            if (factory == null) {
                throw new IllegalStateException("resilience.idempotent.store=redis needs a RedisConnectionFactory bean");
            }
            return new RedisIdempotencyStore(new StringRedisTemplate(factory));
        }
    }
}
