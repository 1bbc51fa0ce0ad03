package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.util.ClassUtils;

/**
 * Adds {@link JdbcTransactionalCompletion} to every transaction manager that runs its transactions
 * on a JDBC connection of a known {@link DataSource}: {@link DataSourceTransactionManager} (and so
 * {@code JdbcTransactionManager}, used by MyBatis and plain JDBC) and Spring Data JPA's
 * {@link JpaTransactionManager} (Hibernate exposes its connection, so the marker joins the JPA
 * transaction). User-defined managers are included. The listener acts only when the idempotency
 * store is the JDBC store on that manager's DataSource; the store is looked up lazily to keep this
 * early post-processor light.
 *
 * <p>Once every singleton exists, transaction managers the completion cannot join (JTA, a manager
 * of another DataSource) are reported when the store is the JDBC store: a WARN naming each bean,
 * or a start failure when {@code requireTransactionalCompletion} is set. Rule I-P6 never silently
 * stops holding.
 */
public class JdbcTransactionalCompletionRegistrar implements BeanPostProcessor, SmartInitializingSingleton {

    /** The property that turns the warning about unjoinable transaction managers into a start failure. */
    public static final String REQUIRE_PROPERTY = "resilience.idempotent.jdbc.require-transactional-completion";

    private static final Logger log = LoggerFactory.getLogger(JdbcTransactionalCompletionRegistrar.class);

    private static final boolean JPA = ClassUtils.isPresent("org.springframework.orm.jpa.JpaTransactionManager",
            JdbcTransactionalCompletionRegistrar.class.getClassLoader());

    private final ObjectProvider<IdempotencyStore> stores;

    private final boolean requireTransactionalCompletion;

    private final Map<String, PlatformTransactionManager> managers = new LinkedHashMap<>();

    /**
     * The store, once every singleton exists (it cannot change after that); until then each
     * transaction asks the bean factory, since transactions may run while the context starts.
     */
    private volatile @Nullable Optional<IdempotencyStore> resolvedStore;

    /**
     * Creates the registrar.
     *
     * @param stores the idempotency store, looked up when a transaction begins
     * @param requireTransactionalCompletion whether a manager the completion cannot join fails the start
     */
    public JdbcTransactionalCompletionRegistrar(ObjectProvider<IdempotencyStore> stores,
            boolean requireTransactionalCompletion) {
        this.stores = stores;
        this.requireTransactionalCompletion = requireTransactionalCompletion;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof PlatformTransactionManager manager) {
            managers.put(beanName, manager);
            DataSource dataSource = dataSourceOf(manager);
            if (dataSource != null && manager instanceof AbstractPlatformTransactionManager configurable) {
                configurable.addListener(new JdbcTransactionalCompletion(() -> {
                    IdempotencyStore store = store();
                    return store instanceof JdbcIdempotencyStore jdbc && jdbc.dataSource() == dataSource ? jdbc : null;
                }));
            }
        }
        return bean;
    }

    private @Nullable IdempotencyStore store() {
        Optional<IdempotencyStore> resolved = resolvedStore;
        // a bean lookup by type on every transaction cost about 1 % of a busy service's CPU
        return resolved != null ? resolved.orElse(null) : stores.getIfAvailable();
    }

    @Override
    public void afterSingletonsInstantiated() {
        resolvedStore = Optional.ofNullable(stores.getIfAvailable());
        if (!(store() instanceof JdbcIdempotencyStore store)) {
            return;
        }
        managers.forEach((name, manager) -> {
            if (dataSourceOf(manager) == store.dataSource()) {
                return;
            }
            String message = "Transaction manager '" + name + "' (" + manager.getClass().getName() + ") does not "
                    + "run on the idempotency store's DataSource: @Idempotent methods in its transactions record "
                    + "their completion after the commit instead of with it, so a crash in between can leave the "
                    + "business effects committed and the key claimable again (rule I-P6). Use a "
                    + "DataSourceTransactionManager, JdbcTransactionManager or JpaTransactionManager on that "
                    + "DataSource, or put the idempotency table there.";
            if (requireTransactionalCompletion) {
                throw new IllegalStateException(message + " (" + REQUIRE_PROPERTY + "=true)");
            }
            log.warn("{} Set {}=true to refuse to start instead.", message, REQUIRE_PROPERTY);
        });
    }

    /**
     * The DataSource whose connection carries the transactions of {@code manager}.
     *
     * @param manager a transaction manager
     * @return its DataSource, or {@code null} when the completion cannot join its transactions
     */
    static @Nullable DataSource dataSourceOf(PlatformTransactionManager manager) {
        if (manager instanceof DataSourceTransactionManager dataSourceManager) {
            return dataSourceManager.getDataSource();
        }
        if (JPA) {
            return Jpa.dataSourceOf(manager);
        }
        return null;
    }

    /** Kept apart so Spring ORM is loaded only when present. */
    private static final class Jpa {

        static @Nullable DataSource dataSourceOf(PlatformTransactionManager manager) {
            return manager instanceof JpaTransactionManager jpa ? jpa.getDataSource() : null;
        }
    }
}
