package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.observability.ObservabilityAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.BootLine;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Adding the starter to an application that annotates nothing changes nothing about its data:
 * no store is created, no schema run, no connection opened, no health component can fail it. The
 * store comes to exist at startup with the first {@code @Idempotent} method, and a store that
 * cannot work fails the start only then.
 */
class InertUntilUsedTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class,
                    ObservabilityAutoConfiguration.class, BootLine.starterHealthAutoConfiguration()));

    /** An idempotent service. */
    static class Orders {

        private final AtomicInteger executions = new AtomicInteger();

        @Idempotent(key = "#orderNo")
        public String create(String orderNo) {
            return orderNo + "#" + executions.incrementAndGet();
        }
    }

    /** A service the starter has nothing to do with. */
    static class Plain {

        public String hello() {
            return "hello";
        }
    }

    /** A DataSource and a Redis factory that count every connection asked of them, and give none. */
    private static final AtomicInteger connectionsAsked = new AtomicInteger();

    private static <T> T untouchable(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(InertUntilUsedTest.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    if (method.getName().startsWith("get") && method.getName().contains("Connection")) {
                        connectionsAsked.incrementAndGet();
                        throw new IllegalStateException("no connection for an application without @Idempotent");
                    }
                    if (method.getName().equals("toString")) {
                        return "untouchable " + type.getSimpleName();
                    }
                    return method.getName().equals("hashCode") ? System.identityHashCode(proxy)
                            : method.getName().equals("equals") ? proxy == args[0] : null;
                }));
    }

    @Test
    void withoutIdempotentMethodsNoStoreIsCreatedAndNoConnectionOpened() {
        connectionsAsked.set(0);
        runner.withBean(Plain.class).withBean(DataSource.class, () -> untouchable(DataSource.class))
                .withBean(RedisConnectionFactory.class, () -> untouchable(RedisConnectionFactory.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Plain.class).hello()).isEqualTo("hello");
                    assertThat(context.getBeanFactory().containsSingleton("idempotencyStore")).isFalse();
                    assertThat(context.getBean(IdempotencyActivation.class).ifActive()).isEmpty();
                    Object health = context.getBean("resilienceIdempotencyHealthIndicator");
                    assertThat(BootLine.healthStatus(health)).isEqualTo("UP");
                    assertThat(connectionsAsked).as("connections asked of the application's stores").hasValue(0);
                });
    }

    @Test
    void anHsqldbApplicationStartsUnchangedAndGetsItsTableWithTheFirstIdempotentMethod() {
        ApplicationContextRunner hsqldb = runner.withConfiguration(AutoConfigurations.of(
                BootLine.dataSourceAutoConfiguration(), BootLine.dataSourceTransactionManagerAutoConfiguration()))
                .withPropertyValues("spring.datasource.url=jdbc:hsqldb:mem:inert_" + System.nanoTime());
        hsqldb.withBean(Plain.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(tables(context.getBean(DataSource.class))).isZero();
        });
        hsqldb.withBean(Orders.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(JdbcIdempotencyStore.class);
            // created at startup, before any call
            assertThat(tables(context.getBean(DataSource.class))).isOne();
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.create("A-1")).isEqualTo("A-1#1");
            assertThat(orders.create("A-1")).isEqualTo("A-1#1");
        });
    }

    private static int tables(DataSource dataSource) {
        return new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                + " WHERE LOWER(TABLE_NAME) = 'resilience_idempotency'", Integer.class);
    }

    @Test
    void aDerbyApplicationStartsUnchangedAndGetsItsTableWithTheFirstIdempotentMethod() {
        ApplicationContextRunner derby = runner.withConfiguration(AutoConfigurations.of(
                BootLine.dataSourceAutoConfiguration(), BootLine.dataSourceTransactionManagerAutoConfiguration()))
                .withPropertyValues("spring.datasource.url=jdbc:derby:memory:inert_" + System.nanoTime() + ";create=true",
                        // named: Boot 4 no longer infers Derby's driver from the URL
                        "spring.datasource.driver-class-name=org.apache.derby.jdbc.EmbeddedDriver",
                        "resilience.idempotent.jdbc.initialize-schema=always");
        derby.withBean(Plain.class).run(context -> assertThat(context).hasNotFailed());
        derby.withBean(Orders.class).run(context -> {
            assertThat(context).hasNotFailed();
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.create("D-1")).isEqualTo("D-1#1");
            assertThat(orders.create("D-1")).isEqualTo("D-1#1");
        });
    }

    @Test
    void aForcedStoreWhoseLibraryIsMissingFailsTheStartOnlyWithAnIdempotentMethod() {
        ApplicationContextRunner forced = runner.withPropertyValues("resilience.idempotent.store=redis");
        forced.withBean(Plain.class).run(context -> assertThat(context).hasNotFailed());
        forced.withBean(Orders.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("resilience.idempotent.store=redis needs spring-data-redis"));
    }
}
