package io.github.resiliencestarter.idempotent.jdbc;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Adds {@link JdbcTransactionalCompletion} to every {@link DataSourceTransactionManager}, user-defined
 * ones included. The listener acts only when the idempotency store is the JDBC store on that
 * manager's DataSource; the store is looked up lazily to keep this early post-processor light.
 */
public class JdbcTransactionalCompletionRegistrar implements BeanPostProcessor {

    private final ObjectProvider<IdempotencyStore> stores;

    private final Clock clock;

    /**
     * Creates the registrar.
     *
     * @param stores the idempotency store, looked up when a transaction begins
     * @param clock the clock for record expiry
     */
    public JdbcTransactionalCompletionRegistrar(ObjectProvider<IdempotencyStore> stores, Clock clock) {
        this.stores = stores;
        this.clock = clock;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSourceTransactionManager manager) {
            manager.addListener(new JdbcTransactionalCompletion(() -> {
                IdempotencyStore store = stores.getIfAvailable();
                return store instanceof JdbcIdempotencyStore jdbc && jdbc.dataSource() == manager.getDataSource()
                        ? jdbc : null;
            }, clock));
        }
        return bean;
    }
}
