package io.github.resiliencestarter.testsupport;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * The real Redis, MySQL-compatible, PostgreSQL and RabbitMQ servers tests run against, found in
 * this order: the {@code RESILIENCE_TEST_*} environment variables (set by {@code scripts/test.sh},
 * which starts Debian's redis-server, mariadb-server, postgresql and rabbitmq-server when Docker is
 * absent); Testcontainers ({@code redis:7}, {@code mysql:8.4}, {@code postgres:16},
 * {@code rabbitmq:3}) when Docker is available; otherwise a loud failure. Tests never skip for
 * lack of a server.
 */
public final class RealServers {

    /** Redis URL variable, e.g. {@code redis://127.0.0.1:6379}. */
    public static final String REDIS_URL = "RESILIENCE_TEST_REDIS_URL";

    /** JDBC URL variable, e.g. {@code jdbc:mariadb://127.0.0.1:3306/resilience}. */
    public static final String JDBC_URL = "RESILIENCE_TEST_JDBC_URL";

    /** JDBC user variable. */
    public static final String JDBC_USER = "RESILIENCE_TEST_JDBC_USER";

    /** JDBC password variable. */
    public static final String JDBC_PASSWORD = "RESILIENCE_TEST_JDBC_PASSWORD";

    /** PostgreSQL JDBC URL variable, e.g. {@code jdbc:postgresql://127.0.0.1:5432/resilience}. */
    public static final String PG_URL = "RESILIENCE_TEST_PG_URL";

    /** PostgreSQL user variable. */
    public static final String PG_USER = "RESILIENCE_TEST_PG_USER";

    /** PostgreSQL password variable. */
    public static final String PG_PASSWORD = "RESILIENCE_TEST_PG_PASSWORD";

    /** RabbitMQ URL variable, e.g. {@code amqp://guest:guest@127.0.0.1:5672}. */
    public static final String RABBIT_URL = "RESILIENCE_TEST_RABBIT_URL";

    private static GenericContainer<?> redisContainer;

    private static GenericContainer<?> rabbitContainer;

    private static GenericContainer<?> mysqlContainer;

    private static GenericContainer<?> postgresContainer;

    private RealServers() {
    }

    /**
     * The Redis server.
     *
     * @return its URL
     */
    public static synchronized String redisUrl() {
        String url = System.getenv(REDIS_URL);
        if (url != null && !url.isBlank()) {
            return url;
        }
        requireDocker("Redis", REDIS_URL);
        if (redisContainer == null) {
            redisContainer = new GenericContainer<>("redis:7").withExposedPorts(6379);
            redisContainer.start();
        }
        return "redis://" + redisContainer.getHost() + ":" + redisContainer.getMappedPort(6379);
    }

    /**
     * The RabbitMQ server.
     *
     * @return its AMQP URL, with a user that may log in
     */
    public static synchronized String rabbitUrl() {
        String url = System.getenv(RABBIT_URL);
        if (url != null && !url.isBlank()) {
            return url;
        }
        requireDocker("RabbitMQ", RABBIT_URL);
        if (rabbitContainer == null) {
            rabbitContainer = new GenericContainer<>("rabbitmq:3").withExposedPorts(5672)
                    .waitingFor(Wait.forLogMessage(".*Server startup complete.*", 1));
            rabbitContainer.start();
        }
        return "amqp://guest:guest@" + rabbitContainer.getHost() + ":" + rabbitContainer.getMappedPort(5672);
    }

    /**
     * Points Spring Boot's {@code spring.rabbitmq.*} at the real RabbitMQ server.
     *
     * @param registry the test's dynamic properties
     */
    public static void registerRabbit(org.springframework.test.context.DynamicPropertyRegistry registry) {
        // addresses rather than host and port: one property on both Boot lines, with the credentials
        registry.add("spring.rabbitmq.addresses", RealServers::rabbitUrl);
    }

    /**
     * The MySQL-compatible server.
     *
     * @return its URL, user and password
     */
    public static synchronized Jdbc jdbc() {
        String url = System.getenv(JDBC_URL);
        if (url != null && !url.isBlank()) {
            return new Jdbc(url, System.getenv(JDBC_USER), System.getenv(JDBC_PASSWORD));
        }
        requireDocker("MySQL", JDBC_URL);
        if (mysqlContainer == null) {
            // a plain container: the same API on Testcontainers 1.x (Boot 3) and 2.x (Boot 4)
            mysqlContainer = new GenericContainer<>("mysql:8.4").withExposedPorts(3306)
                    .withEnv("MYSQL_DATABASE", "test").withEnv("MYSQL_USER", "test")
                    .withEnv("MYSQL_PASSWORD", "test").withEnv("MYSQL_ROOT_PASSWORD", "test")
                    .waitingFor(Wait.forLogMessage(".*ready for connections.*port: 3306.*", 1));
            mysqlContainer.start();
        }
        return new Jdbc("jdbc:mysql://" + mysqlContainer.getHost() + ":" + mysqlContainer.getMappedPort(3306)
                + "/test", "test", "test");
    }

    /**
     * The PostgreSQL server.
     *
     * @return its URL, user and password
     */
    public static synchronized Jdbc postgres() {
        String url = System.getenv(PG_URL);
        if (url != null && !url.isBlank()) {
            return new Jdbc(url, System.getenv(PG_USER), System.getenv(PG_PASSWORD));
        }
        requireDocker("PostgreSQL", PG_URL);
        if (postgresContainer == null) {
            // the image runs the server twice, to initialise and then for real: ready on the second message
            postgresContainer = new GenericContainer<>("postgres:16").withExposedPorts(5432)
                    .withEnv("POSTGRES_DB", "test").withEnv("POSTGRES_USER", "test")
                    .withEnv("POSTGRES_PASSWORD", "test")
                    .waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*", 2));
            postgresContainer.start();
        }
        return new Jdbc("jdbc:postgresql://" + postgresContainer.getHost() + ":"
                + postgresContainer.getMappedPort(5432) + "/test", "test", "test");
    }

    /**
     * Points Spring Boot's {@code spring.datasource.*} at the real MySQL-compatible server.
     *
     * @param registry the test's dynamic properties
     */
    public static void registerDataSource(org.springframework.test.context.DynamicPropertyRegistry registry) {
        registerDataSource(registry, jdbc());
    }

    /**
     * Points Spring Boot's {@code spring.datasource.*} at the real PostgreSQL server.
     *
     * @param registry the test's dynamic properties
     */
    public static void registerPostgresDataSource(org.springframework.test.context.DynamicPropertyRegistry registry) {
        registerDataSource(registry, postgres());
    }

    private static void registerDataSource(org.springframework.test.context.DynamicPropertyRegistry registry,
            Jdbc database) {
        registry.add("spring.datasource.url", database::url);
        registry.add("spring.datasource.username", database::user);
        registry.add("spring.datasource.password", database::password);
    }

    /**
     * Points Spring Boot's {@code spring.data.redis.url} at the real Redis server.
     *
     * @param registry the test's dynamic properties
     */
    public static void registerRedis(org.springframework.test.context.DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.url", RealServers::redisUrl);
    }

    /**
     * A new, empty database on the MySQL-compatible server, for tests that must see a schema
     * built from nothing (migrations, a missing table).
     *
     * @param prefix the start of the database name
     * @return its URL, user and password
     */
    public static Jdbc freshDatabase(String prefix) {
        return freshDatabase(jdbc(), prefix);
    }

    /**
     * A new, empty database on a server.
     *
     * @param server the server, e.g. {@link #jdbc()} or {@link #postgres()}
     * @param prefix the start of the database name
     * @return its URL, user and password
     */
    public static Jdbc freshDatabase(Jdbc server, String prefix) {
        String name = prefix + "_" + Long.toHexString(System.nanoTime());
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(server.url(), server.user(),
                server.password()); java.sql.Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (java.sql.SQLException ex) {
            throw new IllegalStateException("Cannot create the test database " + name, ex);
        }
        String url = server.url().replaceFirst("^(jdbc:[a-z]+://[^/]+/)[^?]*", "$1" + name);
        return new Jdbc(url, server.user(), server.password());
    }

    private static void requireDocker(String server, String variable) {
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError ex) {
            docker = false;
        }
        if (!docker) {
            throw new IllegalStateException("No " + server + " server for the tests: set " + variable
                    + " (scripts/test.sh starts one) or provide Docker for Testcontainers. Tests do not skip.");
        }
    }

    /**
     * Connection settings of a database server.
     *
     * @param url the JDBC URL
     * @param user the user
     * @param password the password
     */
    public record Jdbc(String url, String user, String password) {
    }
}
