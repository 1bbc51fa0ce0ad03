package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JDBC store's claim reads first while an operation's claims mostly meet existing rows (a
 * replay in one statement) and inserts first otherwise (a new key in one statement), on the real
 * MySQL-compatible server; statements are counted at the connection.
 */
class JdbcClaimOrderTest {

    private final List<String> statements = new CopyOnWriteArrayList<>();

    private final DataSource counted = new DelegatingDataSource(StoreFixtures.mysqlDataSource()) {
        @Override
        public Connection getConnection() throws java.sql.SQLException {
            return counting(super.getConnection());
        }
    };

    private final JdbcIdempotencyStore store = new JdbcIdempotencyStore(counted,
            new DataSourceTransactionManager(counted), JdbcIdempotencyStore.DEFAULT_TABLE, TimeSource.SYSTEM);

    private final String run = UUID.randomUUID().toString();

    private ExecutorService pool;

    @AfterEach
    void stopPool() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private Connection counting(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().startsWith("prepare") && args != null && args[0] instanceof String sql) {
                        statements.add(sql.substring(0, sql.indexOf(' ')));
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                });
    }

    private Claim claim(String operation, String key) {
        return new Claim(run + ":" + key, operation, "fp", UUID.randomUUID().toString(), 60_000, 60_000);
    }

    private List<String> statementsOf(Runnable work) {
        statements.clear();
        work.run();
        return new ArrayList<>(statements);
    }

    @Test
    void newKeysAreClaimedWithOneInsert() {
        for (int i = 0; i < 20; i++) {
            int n = i;
            assertThat(statementsOf(() -> assertThat(store.claim(claim("fresh", "k" + n)).owned()).isTrue()))
                    .containsExactly("INSERT");
        }
    }

    @Test
    void repeatedReplaysOfAnOperationAreAnsweredByOneSelect() {
        assertThat(store.claim(claim("replayed", "first")).owned()).isTrue();
        // the first duplicates insert first and learn that this operation's keys exist
        assertThat(statementsOf(() -> store.claim(claim("replayed", "first")))).containsExactly("INSERT", "SELECT");
        for (int i = 0; i < 16; i++) {
            store.claim(claim("replayed", "first"));
        }
        assertThat(statementsOf(() -> assertThat(store.claim(claim("replayed", "first")).existing()).isNotNull()))
                .containsExactly("SELECT");
        // a new key of that operation is still claimed, after the read that found nothing
        assertThat(statementsOf(() -> assertThat(store.claim(claim("replayed", "new")).owned()).isTrue()))
                .containsExactly("SELECT", "INSERT");
    }

    @Test
    void insideATransactionTheClaimInsertsFirstEvenForAnOperationThatReadsFirst() {
        assertThat(store.claim(claim("in-tx", "first")).owned()).isTrue();
        for (int i = 0; i < 17; i++) {
            store.claim(claim("in-tx", "first"));
        }
        assertThat(statementsOf(() -> store.claim(claim("in-tx", "first")))).containsExactly("SELECT");
        // a read first in the claim's own transaction would fix a snapshot without a row another
        // claim commits meanwhile (REPEATABLE READ): the insert comes first there
        TransactionTemplate caller = new TransactionTemplate(new DataSourceTransactionManager(counted));
        List<String> inTransaction = statementsOf(() -> caller.executeWithoutResult(status ->
                assertThat(store.claim(claim("in-tx", "first")).existing()).isNotNull()));
        assertThat(inTransaction).containsExactly("INSERT", "SELECT");
    }

    @Test
    void I3_claimsThatReadFirstStillLeaveExactlyOneOwnerAmong64ConcurrentClaimsTwentyTimesOver() throws Exception {
        assertThat(store.claim(claim("raced", "warm")).owned()).isTrue();
        for (int i = 0; i < 32; i++) {
            store.claim(claim("raced", "warm"));
        }
        assertThat(statementsOf(() -> store.claim(claim("raced", "warm")))).containsExactly("SELECT");
        pool = Executors.newFixedThreadPool(64);
        for (int repetition = 0; repetition < 20; repetition++) {
            String key = "race-" + repetition;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> owned = new ArrayList<>();
            for (int t = 0; t < 64; t++) {
                owned.add(pool.submit(() -> {
                    start.await();
                    return store.claim(claim("raced", key)).owned();
                }));
            }
            start.countDown();
            int owners = 0;
            for (Future<Boolean> result : owned) {
                owners += result.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(owners).as("owners in repetition %d", repetition).isEqualTo(1);
        }
    }
}
