package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.context.TraceIds;
import io.github.resiliencestarter.idempotent.Claim;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.IdempotencyClaimLostException;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencySchema;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.spring.web.ResilienceProblems;
import io.github.resiliencestarter.testsupport.CrashingJdbcStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;

/**
 * Rule I-P6 with Spring Data JPA on Hibernate ({@code JpaTransactionManager}): the COMPLETED
 * record commits in the JPA transaction of the business write, or neither does. Each subclass
 * points {@code spring.datasource.*} at one database (MariaDB, PostgreSQL).
 */
@SpringBootTest(classes = JpaTransactionalCompletionTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "resilience.idempotent.store=jdbc")
abstract class JpaTransactionalCompletionTest {

    @Autowired
    private JpaOrders orders;

    @Autowired
    private PurchaseOrderRepository repository;

    @Autowired
    private IdempotencyStore store;

    @Autowired
    private PlatformTransactionManager transactionManager;

    private final String run = TraceIds.generate().substring(0, 10);

    @BeforeEach
    void reset() {
        crashingStore().crashOnComplete(false);
    }

    private CrashingJdbcStore crashingStore() {
        return (CrashingJdbcStore) store;
    }

    private static String storedKey(String name, String key) {
        return IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, name, "", key);
    }

    @Test
    void theBusinessRunsOnJpaTransactions() {
        assertThat(transactionManager).isInstanceOf(JpaTransactionManager.class);
    }

    @Test
    void IP6_aClaimTakenOverWhileTheJpaCallRunsRollsTheWriteBackAndAnswers409() {
        String orderNo = "L-" + run;
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> orders.createWhileTakenOver(orderNo));

        assertThat(failure).isInstanceOf(IdempotencyClaimLostException.class);
        assertThat(ResilienceProblems.forError(failure, false).getStatus()).isEqualTo(409);
        assertThat(repository.countByOrderNo(orderNo)).isZero();
        // the new owner's record is untouched: still its claim, not completed by the late former owner
        assertThat(store.find(storedKey("JPA_LOST", orderNo)).status()).isEqualTo(IdempotencyStatus.IN_PROGRESS);
    }

    @Test
    void IP6_aJpaWriteThenAFailureLeavesNeitherTheRowNorACompletedRecord() {
        String orderNo = "F-" + run;
        assertThatThrownBy(() -> orders.create(orderNo, true)).isInstanceOf(IllegalStateException.class);

        assertThat(repository.countByOrderNo(orderNo)).isZero();
        assertThat(store.find(storedKey("JPA_CREATE", orderNo))).isNull();
        orders.create(orderNo, false);
        assertThat(repository.countByOrderNo(orderNo)).isEqualTo(1);
    }

    @Test
    void IP6_aCrashAfterTheJpaCommitCannotLeaveTheKeyClaimable() {
        String orderNo = "X-" + run;
        crashingStore().crashOnComplete(true);
        try {
            // the caller is answered (the work committed); the process "dies" before the response is stored
            orders.create(orderNo, false);

            assertThat(repository.countByOrderNo(orderNo)).isEqualTo(1);
            String key = storedKey("JPA_CREATE", orderNo);
            assertThat(store.find(key).status()).isEqualTo(IdempotencyStatus.COMMITTED);
            assertThat(store.claim(new Claim(key, "JPA_CREATE", "any", "someone-else", 1_000, 60_000)).owned())
                    .isFalse();
        } finally {
            crashingStore().crashOnComplete(false);
        }
    }

    @Test
    void IP2_sixtyFourConcurrentDuplicatesThroughJpaWriteExactlyOneRowEveryRun() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            for (int round = 0; round < 10; round++) {
                String orderNo = "C-" + run + "-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<String>> results = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return orders.create(orderNo, false);
                    }));
                }
                start.countDown();
                for (Future<String> result : results) {
                    assertThat(result.get()).isEqualTo("created " + orderNo);
                }
                assertThat(repository.countByOrderNo(orderNo)).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static class JpaOrders {

        private final PurchaseOrderRepository repository;

        private final DataSource dataSource;

        private final AtomicInteger executions = new AtomicInteger();

        JpaOrders(PurchaseOrderRepository repository, DataSource dataSource) {
            this.repository = repository;
            this.dataSource = dataSource;
        }

        @Idempotent(key = "#orderNo", name = "JPA_CREATE", fingerprint = Idempotent.NO_FINGERPRINT)
        @Transactional
        public String create(String orderNo, boolean failAfterWrite) {
            executions.incrementAndGet();
            repository.saveAndFlush(new PurchaseOrder(orderNo, "jpa"));
            if (failAfterWrite) {
                throw new IllegalStateException("failure after the business write");
            }
            return "created " + orderNo;
        }

        @Idempotent(key = "#orderNo", name = "JPA_LOST")
        @Transactional
        public String createWhileTakenOver(String orderNo) throws Exception {
            repository.save(new PurchaseOrder(orderNo, "jpa"));
            // another node takes the claim over, on its own connection, before this transaction commits
            try (Connection other = dataSource.getConnection();
                    PreparedStatement update = other.prepareStatement("UPDATE resilience_idempotency SET"
                            + " owner_token = 'new-owner' WHERE idempotency_key = ?")) {
                other.setAutoCommit(true);
                update.setString(1, storedKey("JPA_LOST", orderNo));
                update.executeUpdate();
            }
            return "created " + orderNo;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(JpaOrders.class)
    static class App {

        @Bean
        IdempotencyStore idempotencyStore(DataSource dataSource, PlatformTransactionManager transactions) {
            JdbcIdempotencySchema.create(dataSource, JdbcIdempotencyStore.DEFAULT_TABLE);
            return new CrashingJdbcStore(dataSource, transactions);
        }
    }
}
