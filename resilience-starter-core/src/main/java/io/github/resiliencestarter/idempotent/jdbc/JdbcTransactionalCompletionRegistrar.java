package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * store in use is the JDBC store on that manager's DataSource; it is asked of the
 * {@link IdempotencyActivation}, which never creates it, so this early post-processor stays light
 * and an application without {@code @Idempotent} methods gets no store.
 *
 * <p>Once the store is in use (at startup, when the first annotated method is resolved),
 * transaction managers the completion cannot join (JTA, a manager of another DataSource) are
 * reported when the store is the JDBC store: a WARN naming each bean,
 * or a start failure when {@code requireTransactionalCompletion} is set. Rule I-P6 never silently
 * stops holding.
 */
public class JdbcTransactionalCompletionRegistrar implements BeanPostProcessor, SmartInitializingSingleton {

    /** The property that turns the warning about unjoinable transaction managers into a start failure. */
    public static final String REQUIRE_PROPERTY = "resilience.idempotent.jdbc.require-transactional-completion";

    private static final Logger log = LoggerFactory.getLogger(JdbcTransactionalCompletionRegistrar.class);

    private static final boolean JPA = ClassUtils.isPresent("org.springframework.orm.jpa.JpaTransactionManager",
            JdbcTransactionalCompletionRegistrar.class.getClassLoader());

    private final ObjectProvider<IdempotencyActivation> activations;

    private final boolean requireTransactionalCompletion;

    private final Map<String, PlatformTransactionManager> managers = new LinkedHashMap<>();

    /**
     * The activation, once looked up (a bean lookup by type on every transaction cost about 1 % of a
     * busy service's CPU); until it exists each transaction asks the bean factory.
     */
    private volatile @Nullable IdempotencyActivation activation;

    /**
     * Creates the registrar.
     *
     * @param activations the idempotency activation, looked up when a transaction begins
     * @param requireTransactionalCompletion whether a manager the completion cannot join fails the start
     */
    public JdbcTransactionalCompletionRegistrar(ObjectProvider<IdempotencyActivation> activations,
            boolean requireTransactionalCompletion) {
        this.activations = activations;
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
        IdempotencyActivation found = activation();
        return found == null ? null : found.storeIfActive();
    }

    private @Nullable IdempotencyActivation activation() {
        IdempotencyActivation found = activation;
        if (found == null) {
            found = activations.getIfAvailable();
            activation = found;
        }
        return found;
    }

    @Override
    public void afterSingletonsInstantiated() {
        IdempotencyActivation found = activation();
        if (found != null) {
            found.whenActive(active -> reportUnjoinableManagers(active.store()));
        }
    }

    private void reportUnjoinableManagers(IdempotencyStore inUse) {
        if (!(inUse instanceof JdbcIdempotencyStore store)) {
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
