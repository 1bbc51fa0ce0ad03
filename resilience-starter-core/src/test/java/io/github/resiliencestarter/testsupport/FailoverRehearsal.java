package io.github.resiliencestarter.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentExecutor;
import io.github.resiliencestarter.idempotent.IdempotentResult;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Keys sent one after another through a fault of the store's servers (a failover, a frozen or
 * killed master), then every key sent again once the servers settled. Every execution inserts a row
 * into a table without a unique key in MariaDB: a key whose claim or completion the fault lost
 * executes a second time, and shows as a second row.
 */
public final class FailoverRehearsal {

    /** The effects of every rehearsal, told apart by a random prefix of their keys. */
    private static final String EFFECTS = "failover_effects";

    /** Keys per rehearsal: 40 ms apart, the fault lands after an eighth of them. */
    public static final int KEYS = 120;

    /** Calls per key in the second pass while the store refuses it as unavailable. */
    private static final int SECOND_PASS_ATTEMPTS = 3;

    private static volatile JdbcTemplate effects;

    private FailoverRehearsal() {
    }

    /**
     * Sends {@link #KEYS} keys to one node on {@code store} while {@code fault} strikes, then each
     * key again.
     *
     * @param store the store on the servers under test
     * @param fault strikes the servers; answers whether they settled on a new master
     * @return what happened to the keys
     * @throws Exception when the rehearsal itself fails (the fault did not settle, a caller hung)
     */
    public static Result run(IdempotencyStore store, Callable<Boolean> fault) throws Exception {
        JdbcTemplate table = effects();
        IdempotentExecutor node = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec()).build();
        IdempotencyConfig config = IdempotencyConfig.custom().lease(Duration.ofSeconds(2)).build();
        String prefix = "idem:failover:" + UUID.randomUUID() + ":";
        Map<String, String> firstAnswers = new ConcurrentHashMap<>();

        ExecutorService callers = Executors.newFixedThreadPool(4);
        ExecutorService striker = Executors.newSingleThreadExecutor();
        List<Future<?>> first = new ArrayList<>();
        Future<Boolean> settled = null;
        try {
            for (int i = 0; i < KEYS; i++) {
                String key = prefix + i;
                first.add(callers.submit(() -> firstAnswers.put(key, attempt(node, table, key, config))));
                Thread.sleep(40);
                if (i == KEYS / 8) {
                    // the fault lands while keys keep arriving
                    settled = striker.submit(fault);
                }
            }
            for (Future<?> call : first) {
                call.get(60, TimeUnit.SECONDS);
            }
            if (!settled.get(90, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the servers did not settle on a new master");
            }
        } finally {
            callers.shutdownNow();
            striker.shutdownNow();
        }

        // every key again, on the settled servers: a key whose writes were lost executes a second time
        Map<String, String> secondAnswers = new ConcurrentHashMap<>();
        Result result = new Result();
        for (int i = 0; i < KEYS; i++) {
            String key = prefix + i;
            secondAnswers.put(key, afterSettling(node, table, key, config, result));
        }
        for (int i = 0; i < KEYS; i++) {
            String key = prefix + i;
            int count = table.queryForObject("SELECT COUNT(*) FROM " + EFFECTS + " WHERE idempotency_key = ?",
                    Integer.class, key);
            if (count == 1) {
                result.executedOnce++;
            } else if (count > 1) {
                result.executedTwice++;
                result.twice.add(i + " (first " + firstAnswers.get(key) + ", then " + secondAnswers.get(key) + ")");
            }
            result.count(firstAnswers.get(key), result.firstAnswers);
            result.count(secondAnswers.get(key), result.secondAnswers);
        }
        return result;
    }

    private static synchronized JdbcTemplate effects() {
        if (effects == null) {
            JdbcTemplate table = new JdbcTemplate(StoreFixtures.mysqlDataSource());
            // no unique key: a second execution shows as a second row
            table.execute("CREATE TABLE IF NOT EXISTS " + EFFECTS + " (idempotency_key VARCHAR(200) NOT NULL)");
            effects = table;
        }
        return effects;
    }

    /**
     * A second-pass call, sent again while the store answers that it is unavailable, as a client
     * sends a 503 again: a failover may still be settling (a Sentinel setup refuses a call that
     * reaches a demoted master, a Cluster store whose redirect leads to a second refusal refuses
     * it too). Any other answer is final, so a key left in progress still fails the rehearsal.
     */
    private static String afterSettling(IdempotentExecutor node, JdbcTemplate table, String key, IdempotencyConfig config,
            Result result) {
        String answer = attempt(node, table, key, config);
        for (int sent = 1; sent < SECOND_PASS_ATTEMPTS && IdempotencyStoreException.class.getSimpleName().equals(answer); sent++) {
            result.sentAgain++;
            answer = attempt(node, table, key, config);
        }
        return answer;
    }

    /** One caller's call: what it was answered. */
    private static String attempt(IdempotentExecutor node, JdbcTemplate table, String key, IdempotencyConfig config) {
        try {
            IdempotentResult<String> result = node.execute(
                    new IdempotentCall("Orders.create", key, "fp", String.class, config), () -> {
                        table.update("INSERT INTO " + EFFECTS + " (idempotency_key) VALUES (?)", key);
                        return "done";
                    });
            return result.replayed() ? "replayed" : "executed";
        } catch (Throwable refused) {
            return refused.getClass().getSimpleName();
        }
    }

    /** What happened to the keys of one rehearsal. */
    public static final class Result {

        private int executedOnce;

        private int executedTwice;

        /** Second-pass calls sent again after the store refused them as unavailable. */
        private int sentAgain;

        /** The keys executed twice, by number in the order sent, with what their two calls were answered. */
        private final List<String> twice = new ArrayList<>();

        private final Map<String, Integer> firstAnswers = new ConcurrentHashMap<>();

        private final Map<String, Integer> secondAnswers = new ConcurrentHashMap<>();

        private Result() {
        }

        /** @return keys that executed exactly once */
        public int executedOnce() {
            return executedOnce;
        }

        /** @return keys that executed more than once */
        public int executedTwice() {
            return executedTwice;
        }

        /** Asserts that no key executed twice and every key executed in the end. */
        public void assertEachKeyExecutedOnce() {
            assertThat(executedTwice).as("keys executed twice: " + this).isZero();
            assertThat(executedOnce).as("every key executed in the end: " + this).isEqualTo(KEYS);
        }

        private void count(String answer, Map<String, Integer> answers) {
            answers.merge(String.valueOf(answer), 1, Integer::sum);
        }

        @Override
        public String toString() {
            return "executed once " + executedOnce + ", twice " + executedTwice + "; first pass " + firstAnswers
                    + "; second pass " + secondAnswers + ", " + sentAgain + " sent again" + (twice.isEmpty() ? "" : "; executed twice (the first 10): "
                    + twice.subList(0, Math.min(10, twice.size())));
        }
    }
}
