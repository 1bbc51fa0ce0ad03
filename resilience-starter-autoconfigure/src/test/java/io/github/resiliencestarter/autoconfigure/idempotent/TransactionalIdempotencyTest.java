package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotentReplayException;
import io.github.resiliencestarter.idempotent.StoredResponse;
import io.github.resiliencestarter.idempotent.jdbc.IdempotencyClaimLostException;
import io.github.resiliencestarter.idempotent.jdbc.IdempotentAttemptCommittedException;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.retry.RetryableException;
import io.github.resiliencestarter.testsupport.CrashingJdbcStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Rule I-P6 on a real database: the COMPLETED record commits in the same transaction as the
 * business writes, and DESIGN §6's order with all annotations on one method. Each subclass points
 * {@code spring.datasource.*} at one database (MySQL-compatible, PostgreSQL).
 */
@SpringBootTest(classes = TransactionalIdempotencyTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"resilience.idempotent.store=jdbc", "resilience.idempotent.jdbc.initialize-schema=always",
            "resilience.retry.delay=5ms", "resilience.retry.max-delay=10ms"})
abstract class TransactionalIdempotencyTest {

    @Autowired
    private OrderService orders;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private IdempotencyStore store;

    private final String run = TraceIds.generate().substring(0, 10);

    @BeforeEach
    void table() {
        jdbc.execute("CREATE TABLE IF NOT EXISTS ip6_orders (order_no VARCHAR(64) NOT NULL PRIMARY KEY)");
        // no unique key: a second commit of the same save shows as a second row
        jdbc.execute("CREATE TABLE IF NOT EXISTS ip6_saves (order_no VARCHAR(64) NOT NULL)");
        crashingStore().crashOnComplete(false);
    }

    private int rows(String orderNo) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM ip6_orders WHERE order_no = ?", Integer.class, orderNo);
    }

    private int saves(String orderNo) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM ip6_saves WHERE order_no = ?", Integer.class, orderNo);
    }

    private CrashingJdbcStore crashingStore() {
        return (CrashingJdbcStore) store;
    }

    private static String storedKey(String name, String key) {
        return IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, name, "", key);
    }

    @Test
    void IP6_aFailureAfterTheBusinessWriteLeavesNeitherTheRowNorACompletedRecord() {
        String orderNo = "F-" + run;
        assertThatThrownBy(() -> orders.create(orderNo, true)).isInstanceOf(IllegalStateException.class);

        assertThat(rows(orderNo)).isZero();
        assertThat(store.find(storedKey("IP6_CREATE", orderNo))).isNull();
        assertThat(orders.create(orderNo, false)).isEqualTo("created " + orderNo);
        assertThat(rows(orderNo)).isEqualTo(1);
    }

    @Test
    void IP6_theCompletedRecordCommitsWithTheBusinessWrite() {
        String orderNo = "C-" + run;
        orders.create(orderNo, false);
        IdempotencyRecord record = store.find(storedKey("IP6_CREATE", orderNo));

        assertThat(rows(orderNo)).isEqualTo(1);
        assertThat(record.status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record.response()).isEqualTo(StoredResponse.value("\"created " + orderNo + "\""));
        assertThat(orders.create(orderNo, false)).isEqualTo("created " + orderNo);
        assertThat(rows(orderNo)).isEqualTo(1);
    }

    @Test
    void IP6_aCrashAfterTheBusinessCommitCannotLeaveTheKeyClaimable() throws Exception {
        String orderNo = "X-" + run;
        crashingStore().crashOnComplete(true);
        try {
            // the caller is answered (the work committed); the process "dies" before the response is stored
            assertThat(orders.create(orderNo, false)).isEqualTo("created " + orderNo);

            // the business row committed, and with it the record left the claimable state
            assertThat(rows(orderNo)).isEqualTo(1);
            String key = storedKey("IP6_CREATE", orderNo);
            assertThat(store.find(key).status()).isEqualTo(IdempotencyStatus.COMMITTED);
            assertThat(store.claim(new Claim(key, "IP6_CREATE", "any", "someone-else", 1_000, 60_000)).owned())
                    .isFalse();

            // once the crashed owner's lease is over, a duplicate learns the response is lost; it never re-executes
            jdbc.update("UPDATE resilience_idempotency SET lease_expire_time = 0 WHERE idempotency_key = ?", key);
            assertThatThrownBy(() -> orders.create(orderNo, false)).isInstanceOf(IdempotentReplayException.class);
            assertThat(rows(orderNo)).isEqualTo(1);
        } finally {
            crashingStore().crashOnComplete(false);
        }
    }

    @Test
    void IP6_aVoidMethodThatCrashedAfterItsCommitIsReplayedAsDoneOnceItsLeaseIsOver() {
        String orderNo = "V-" + run;
        crashingStore().crashOnComplete(true);
        try {
            // a consumer's shape: no answer but the effect; the process "dies" before the response is stored
            orders.record(orderNo);
            String key = storedKey("IP6_RECORD", orderNo);
            assertThat(store.find(key).status()).isEqualTo(IdempotencyStatus.COMMITTED);

            // the redelivery after the lease: the commit proves the effect, which is all a void method answers
            jdbc.update("UPDATE resilience_idempotency SET lease_expire_time = 0 WHERE idempotency_key = ?", key);
            orders.record(orderNo);
            assertThat(saves(orderNo)).as("one effect").isEqualTo(1);
        } finally {
            crashingStore().crashOnComplete(false);
        }
    }

    @Test
    void IP6_aClaimLostBeforeTheCommitRollsTheBusinessWriteBack() {
        String orderNo = "L-" + run;
        assertThatThrownBy(() -> orders.createWhileSomeoneTakesOver(orderNo))
                .isInstanceOf(IdempotencyClaimLostException.class);
        assertThat(rows(orderNo)).isZero();
    }

    @Test
    void RP1_anAttemptWhoseWritesCommittedIsNotRetriedAndItsKeyNeverRunsAgain() {
        String orderNo = "S-" + run;
        // the save commits with the key, then the inventory read times out: a retry would save again
        assertThatThrownBy(() -> orders.saveThenFail(orderNo)).isInstanceOf(RetryableException.class)
                .satisfies(failure -> assertThat(failure.getSuppressed()).anySatisfy(summary -> assertThat(summary)
                        .hasMessageContaining("already committed its writes")));

        assertThat(saves(orderNo)).isEqualTo(1);
        IdempotencyRecord record = store.find(storedKey("IP6_SAVE_THEN_FAIL", orderNo));
        assertThat(record.status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record.response()).isEqualTo(StoredResponse.outcomeUnknown());
        // the client's retry is told the outcome is unknown; it never saves a second time
        assertThatThrownBy(() -> orders.saveThenFail(orderNo)).isInstanceOf(IdempotentReplayException.class);
        assertThat(saves(orderNo)).isEqualTo(1);
    }

    @Test
    void RP1_theJdbcStoreRollsBackALaterAttemptOfAnExecutionWhoseEarlierAttemptCommitted() {
        String orderNo = "T-" + run;
        assertThat(orders.saveOnEachAttemptOfItsOwnLoop(orderNo)).isEqualTo("attempt 2 refused");
        assertThat(saves(orderNo)).isEqualTo(1);
    }

    @Test
    void RP1_aRetryThatBeganAfterTheCommitRetriesAndCommitsItsOwnWrites() {
        String orderNo = "D-" + run;
        // the save commits with the key, then a downstream call retries: it is not the save repeated
        assertThat(orders.saveThenCallAFlakyDownstream(orderNo)).isEqualTo("downstream ok on attempt 2");
        assertThat(saves(orderNo)).isEqualTo(1);
        assertThat(saves("audit-" + orderNo)).isEqualTo(1);
    }

    @Test
    void allAnnotationsMeetInTheDesignOrderAndEachAttemptHasItsOwnTransaction() {
        String orderNo = "O-" + run;
        String result = orders.createWithEverything(orderNo);

        assertThat(result).isEqualTo("created " + orderNo + " on attempt 2");
        assertThat(rows(orderNo)).isEqualTo(1);
        List<String> seen = orders.observations();
        // attempt 1 and 2: inside a transaction, inside a deadline, holding the idempotency claim
        assertThat(seen).containsExactly("attempt=1 tx=true deadline=true key=true",
                "attempt=2 tx=true deadline=true key=true");
        assertThat(orders.createWithEverything(orderNo)).isEqualTo(result);
        assertThat(orders.observations()).hasSize(2);
        assertThat(store.find(storedKey("ORDER_ALL", orderNo)).status()).isEqualTo(IdempotencyStatus.COMPLETED);
    }

    /** Saves in a transaction of its own, as a repository's {@code save} does. */
    static class SaveWriter {

        private final JdbcTemplate jdbc;

        SaveWriter(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Transactional
        public void save(String orderNo) {
            jdbc.update("INSERT INTO ip6_saves (order_no) VALUES (?)", orderNo);
        }
    }

    /** A downstream call with retries of its own, auditing in its own transaction once it succeeds. */
    static class FlakyDownstream {

        private final AtomicInteger calls = new AtomicInteger();

        @Autowired
        private SaveWriter writer;

        @Retry(maxAttempts = 3, idempotent = true)
        public String call(String orderNo) {
            if (calls.incrementAndGet() % 2 == 1) {
                throw new RetryableException("DOWNSTREAM", "503 from the downstream");
            }
            writer.save("audit-" + orderNo);
            return "downstream ok on attempt " + TraceContextHolder.current().attempt();
        }
    }

    static class OrderService {

        @Autowired
        private FlakyDownstream downstream;

        @Idempotent(key = "#orderNo", name = "IP6_SAVE_THEN_CALL")
        public String saveThenCallAFlakyDownstream(String orderNo) {
            writer.save(orderNo);
            return downstream.call(orderNo);
        }

        private final JdbcTemplate jdbc;

        private final DataSource dataSource;

        @Autowired
        private SaveWriter writer;

        @Idempotent(key = "#orderNo", name = "IP6_SAVE_THEN_FAIL")
        @Retry(maxAttempts = 3)
        public String saveThenFail(String orderNo) {
            writer.save(orderNo);
            throw new RetryableException("INVENTORY", "read timed out after the save");
        }

        /** A retry loop of the application's own, numbering its attempts as the starter's does. */
        @Idempotent(key = "#orderNo", name = "IP6_OWN_LOOP")
        public String saveOnEachAttemptOfItsOwnLoop(String orderNo) {
            for (int attempt = 1; attempt <= 2; attempt++) {
                try (TraceScope scope = TraceContextHolder.open(TraceContextHolder.current().withAttempt(attempt))) {
                    writer.save(orderNo);
                } catch (IdempotentAttemptCommittedException refused) {
                    return "attempt " + attempt + " refused";
                }
            }
            return "saved twice";
        }

        private final AtomicInteger attempts = new AtomicInteger();

        private final List<String> observations = new ArrayList<>();

        OrderService(JdbcTemplate jdbc, DataSource dataSource) {
            this.jdbc = jdbc;
            this.dataSource = dataSource;
        }

        public List<String> observations() {
            return List.copyOf(observations);
        }

        @Idempotent(key = "#orderNo", name = "IP6_CREATE", fingerprint = Idempotent.NO_FINGERPRINT)
        @Transactional
        public String create(String orderNo, boolean failAfterWrite) {
            jdbc.update("INSERT INTO ip6_orders (order_no) VALUES (?)", orderNo);
            if (failAfterWrite) {
                throw new IllegalStateException("failure after the business write");
            }
            return "created " + orderNo;
        }

        @Idempotent(key = "#orderNo", name = "IP6_RECORD")
        @Transactional
        public void record(String orderNo) {
            jdbc.update("INSERT INTO ip6_saves (order_no) VALUES (?)", orderNo);
        }

        @Idempotent(key = "#orderNo", name = "IP6_LOST")
        @Transactional
        public String createWhileSomeoneTakesOver(String orderNo) throws Exception {
            jdbc.update("INSERT INTO ip6_orders (order_no) VALUES (?)", orderNo);
            // another node takes the claim over, on its own connection, before this transaction commits
            try (Connection other = dataSource.getConnection();
                    PreparedStatement update = other.prepareStatement("UPDATE resilience_idempotency SET"
                            + " owner_token = 'intruder' WHERE idempotency_key = ?")) {
                other.setAutoCommit(true);
                update.setString(1, storedKey("IP6_LOST", orderNo));
                update.executeUpdate();
            }
            return "created " + orderNo;
        }

        @Timeout("5s")
        @Idempotent(key = "#orderNo", name = "ORDER_ALL")
        @Retry
        @Transactional
        public String createWithEverything(String orderNo) {
            TraceContext context = TraceContextHolder.current();
            int attempt = context.attempt();
            observations.add("attempt=" + attempt + " tx=" + TransactionSynchronizationManager.isActualTransactionActive()
                    + " deadline=" + (context.deadline() != null) + " key=" + (context.idempotentExecution() != null));
            jdbc.update("INSERT INTO ip6_orders (order_no) VALUES (?)", orderNo);
            if (attempts.incrementAndGet() == 1) {
                throw new RetryableException("LOCK_WAIT", "transient failure after the insert");
            }
            return "created " + orderNo + " on attempt " + attempt;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({OrderService.class, SaveWriter.class, FlakyDownstream.class})
    static class App {

        @Bean
        IdempotencyStore idempotencyStore(DataSource dataSource, PlatformTransactionManager transactions) {
            // the application's own store: the starter's schema initialization is for its own
            JdbcIdempotencySchema.create(dataSource, JdbcIdempotencyStore.DEFAULT_TABLE);
            return new CrashingJdbcStore(dataSource, transactions);
        }
    }
}
