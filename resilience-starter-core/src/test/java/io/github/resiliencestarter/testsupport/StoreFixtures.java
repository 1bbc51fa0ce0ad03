package io.github.resiliencestarter.testsupport;

import com.zaxxer.hikari.HikariDataSource;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.Completion;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.DuplicateShare;
import java.net.URI;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/** Builds stores on the real servers of {@link RealServers}, shared across the test JVM. */
public final class StoreFixtures {

    private static LettuceConnectionFactory redisFactory;

    private static HikariDataSource mysql;

    private static HikariDataSource postgres;

    private static HikariDataSource h2;

    private static HikariDataSource hsqldb;

    private static HikariDataSource derby;

    private StoreFixtures() {
    }

    /**
     * A Lettuce connection factory on the real Redis.
     *
     * @return the factory
     */
    public static synchronized LettuceConnectionFactory redisConnectionFactory() {
        if (redisFactory == null) {
            LettuceConnectionFactory factory = newRedisConnectionFactory();
            factory.afterPropertiesSet();
            factory.start();
            redisFactory = factory;
        }
        return redisFactory;
    }

    /**
     * A connection factory on the real Redis of the caller's own, not yet initialised: a bean of a
     * test's context, which starts and destroys it (never the shared one, which others still use).
     *
     * @return the factory
     */
    public static LettuceConnectionFactory newRedisConnectionFactory() {
        URI uri = URI.create(RealServers.redisUrl());
        return new LettuceConnectionFactory(new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
    }

    /**
     * A template on the real Redis.
     *
     * @return the template
     */
    public static StringRedisTemplate redisTemplate() {
        StringRedisTemplate template = new StringRedisTemplate(redisConnectionFactory());
        template.afterPropertiesSet();
        return template;
    }

    /**
     * A Redis store on the real Redis.
     *
     * @return the store
     */
    public static RedisIdempotencyStore redisStore() {
        return new RedisIdempotencyStore(redisTemplate());
    }

    /**
     * A pooled DataSource on the real MySQL-compatible server, with the idempotency table created.
     *
     * @return the data source
     */
    public static synchronized DataSource mysqlDataSource() {
        if (mysql == null) {
            mysql = pooledWithTable(RealServers.jdbc(), JdbcIdempotencySchema.MYSQL_SCRIPT);
        }
        return mysql;
    }

    /**
     * A pooled DataSource on the real PostgreSQL server, with the idempotency table created.
     *
     * @return the data source
     */
    public static synchronized DataSource postgresDataSource() {
        if (postgres == null) {
            postgres = pooledWithTable(RealServers.postgres(), JdbcIdempotencySchema.POSTGRESQL_SCRIPT);
        }
        return postgres;
    }

    /**
     * A JDBC store on the real MySQL-compatible server.
     *
     * @return the store
     */
    public static JdbcIdempotencyStore mysqlStore() {
        return jdbcStore(mysqlDataSource());
    }

    /**
     * A JDBC store on the real PostgreSQL server.
     *
     * @return the store
     */
    public static JdbcIdempotencyStore postgresStore() {
        return jdbcStore(postgresDataSource());
    }

    /**
     * An in-memory H2 database with the idempotency table, created by the starter's own schema code.
     *
     * @return the pooled data source
     */
    public static synchronized DataSource h2DataSource() {
        if (h2 == null) {
            h2 = embeddedWithTable("jdbc:h2:mem:resilience_contract;DB_CLOSE_DELAY=-1");
        }
        return h2;
    }

    /**
     * An in-memory HSQLDB database with the idempotency table, created by the starter's own schema code.
     *
     * @return the pooled data source
     */
    public static synchronized DataSource hsqldbDataSource() {
        if (hsqldb == null) {
            hsqldb = embeddedWithTable("jdbc:hsqldb:mem:resilience_contract");
        }
        return hsqldb;
    }

    /**
     * An in-memory Apache Derby database with the idempotency table, created by the starter's own schema code.
     *
     * @return the pooled data source
     */
    public static synchronized DataSource derbyDataSource() {
        if (derby == null) {
            derby = embeddedWithTable("jdbc:derby:memory:resilience_contract;create=true");
        }
        return derby;
    }

    private static HikariDataSource embeddedWithTable(String url) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(url);
        dataSource.setUsername("sa");
        dataSource.setMaximumPoolSize(40);
        JdbcIdempotencySchema.create(dataSource, JdbcIdempotencyStore.DEFAULT_TABLE);
        return dataSource;
    }

    /**
     * A JDBC store on the default table of a database, with claims in transactions of their own.
     *
     * @param dataSource the database
     * @return the store
     */
    public static JdbcIdempotencyStore jdbcStore(DataSource dataSource) {
        return new JdbcIdempotencyStore(dataSource, new DataSourceTransactionManager(dataSource),
                JdbcIdempotencyStore.DEFAULT_TABLE, TimeSource.SYSTEM);
    }

    private static HikariDataSource pooledWithTable(RealServers.Jdbc settings, String schemaScript) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(settings.url());
        dataSource.setUsername(settings.user());
        dataSource.setPassword(settings.password());
        dataSource.setMaximumPoolSize(40);
        new ResourceDatabasePopulator(new ClassPathResource(schemaScript)).execute(dataSource);
        return dataSource;
    }

    /**
     * Completes {@code key} of operation {@code name} and claims it again until most of the
     * operation's recent claims found a record, so the store reads before its next claims
     * ({@code DuplicateShare}).
     *
     * @param store the store
     * @param key the key
     * @param name the operation
     */
    public static void mostlyReplayed(IdempotencyStore store, String key, String name) {
        if (!store.claim(new Claim(key, name, "fp", "owner", 30_000, 60_000)).owned()
                || !store.complete(new Completion(key, "owner", new StoredResponse("value", "\"done\""), 60_000))) {
            throw new IllegalStateException("the key to replay was not claimed and completed: " + key);
        }
        for (int i = 0; i < 2 * DuplicateShare.SPAN; i++) {
            store.claim(new Claim(key, name, "fp", "duplicate-" + i, 30_000, 60_000));
        }
    }
}
