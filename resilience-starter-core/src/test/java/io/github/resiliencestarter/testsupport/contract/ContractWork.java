package io.github.resiliencestarter.testsupport.contract;

import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.RealServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The work behind every entry point of the contract: one row per execution in
 * {@value #TABLE}, a table without a unique key (a second execution shows as a second row), then
 * what the payload asks for. Directives in the payload: {@value #FAIL_ONCE} (the key's first
 * execution fails before any effect, as a transient fault), {@value #HOLD} (the execution waits
 * after its effect until the test releases it), {@code answer-NNN} (the work answers status NNN
 * after its effect). Everything runs in the test's JVM, so the state is static.
 */
public final class ContractWork {

    /** The effects table: no unique key, on the test command's MariaDB. */
    public static final String TABLE = "contract_effect";

    /** The key's first execution fails before its effect. */
    public static final String FAIL_ONCE = "fail-once";

    /** The execution waits after its effect until {@link #release}. */
    public static final String HOLD = "hold";

    private static final String ANSWER = "answer-";

    private static final Map<String, AtomicInteger> ARRIVALS = new ConcurrentHashMap<>();

    private static final Map<String, AtomicInteger> HANDLED = new ConcurrentHashMap<>();

    private static final Map<String, CountDownLatch> RELEASES = new ConcurrentHashMap<>();

    private static final Set<String> HOLDING = ConcurrentHashMap.newKeySet();

    private static final Set<String> FAILED = ConcurrentHashMap.newKeySet();

    private static volatile boolean tableReady;

    private ContractWork() {
    }

    /**
     * Performs one execution.
     *
     * @param entryPoint the entry point it runs behind
     * @param key the idempotency key
     * @param payload the request's payload
     * @return the answer
     * @throws TransientWorkFailure on the first execution of a {@value #FAIL_ONCE} payload
     */
    public static WorkResult perform(String entryPoint, String key, String payload) {
        if (payload.contains(FAIL_ONCE) && FAILED.add(entryPoint + '\n' + key)) {
            throw new TransientWorkFailure(key);
        }
        if (ContractProcess.diesMidWork()) {
            dieMidWork(entryPoint, key, payload);
        }
        int execution = insert(entryPoint, key, payload);
        if (payload.contains(HOLD)) {
            CountDownLatch release = RELEASES.computeIfAbsent(key, any -> new CountDownLatch(1));
            HOLDING.add(key);
            try {
                release.await(Eventually.GENEROUSLY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        int at = payload.indexOf(ANSWER);
        int status = at < 0 ? 201 : Integer.parseInt(payload.substring(at + ANSWER.length(), at + ANSWER.length() + 3));
        return new WorkResult(status, "{\"entryPoint\":\"" + entryPoint + "\",\"key\":\"" + key + "\",\"execution\":"
                + execution + ",\"payload\":\"" + payload + "\"}", "/contract/" + key + "/" + execution);
    }

    /**
     * Tells that a request of {@code key} reached the entry point, before the starter saw it.
     *
     * @param key the idempotency key
     */
    public static void arrived(String key) {
        ARRIVALS.computeIfAbsent(key, any -> new AtomicInteger()).incrementAndGet();
    }

    /**
     * Requests of a key that reached the entry point.
     *
     * @param key the idempotency key
     * @return how many
     */
    public static int arrivals(String key) {
        AtomicInteger count = ARRIVALS.get(key);
        return count == null ? 0 : count.get();
    }

    /**
     * Tells that the entry point is done with a request of {@code key} (an entry point without an
     * answer: a delivery acknowledged or rejected).
     *
     * @param key the idempotency key
     */
    public static void handled(String key) {
        HANDLED.computeIfAbsent(key, any -> new AtomicInteger()).incrementAndGet();
    }

    /**
     * Requests of a key the entry point is done with.
     *
     * @param key the idempotency key
     * @return how many
     */
    public static int handledCount(String key) {
        AtomicInteger count = HANDLED.get(key);
        return count == null ? 0 : count.get();
    }

    /**
     * Whether an execution of {@code key} is holding.
     *
     * @param key the idempotency key
     * @return {@code true} once one waits for its release
     */
    public static boolean holding(String key) {
        return HOLDING.contains(key);
    }

    /**
     * Lets a holding execution of {@code key} finish.
     *
     * @param key the idempotency key
     */
    public static void release(String key) {
        RELEASES.computeIfAbsent(key, any -> new CountDownLatch(1)).countDown();
    }

    /**
     * The effects of {@code key} behind an entry point: rows, not distinct keys.
     *
     * @param entryPoint the entry point
     * @param key the idempotency key
     * @return how many executions took effect
     */
    public static int effects(String entryPoint, String key) {
        try (Connection connection = connect();
                PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM " + TABLE
                        + " WHERE entry_point = ? AND idem_key = ?")) {
            count.setString(1, entryPoint);
            count.setString(2, key);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("the effects table cannot be read", ex);
        }
    }

    private static int insert(String entryPoint, String key, String payload) {
        try (Connection connection = connect()) {
            write(connection, entryPoint, key, payload);
        } catch (SQLException ex) {
            throw new IllegalStateException("the effect could not be written", ex);
        }
        return effects(entryPoint, key);
    }

    private static void write(Connection connection, String entryPoint, String key, String payload)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE
                + " (entry_point, idem_key, payload) VALUES (?, ?, ?)")) {
            insert.setString(1, entryPoint);
            insert.setString(2, key);
            insert.setString(3, payload.length() > 500 ? payload.substring(0, 500) : payload);
            insert.executeUpdate();
        }
    }

    /**
     * In a {@link ContractProcess}: writes the effect in a transaction left open, tells the test,
     * and waits for the kill, which ends the connection and so rolls the effect back.
     */
    private static void dieMidWork(String entryPoint, String key, String payload) {
        try {
            Connection connection = connect();
            connection.setAutoCommit(false);
            write(connection, entryPoint, key, payload);
            ContractProcess.announceMidWork(key);
            for (;;) {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException ex) {
                    // a killed process does nothing more, whoever interrupts it
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("the effect could not be written", ex);
        }
    }

    private static Connection connect() throws SQLException {
        RealServers.Jdbc db = RealServers.jdbc();
        Connection connection = DriverManager.getConnection(db.url(), db.user(), db.password());
        if (!tableReady) {
            try (Statement ddl = connection.createStatement()) {
                ddl.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (entry_point VARCHAR(32) NOT NULL, "
                        + "idem_key VARCHAR(200) NOT NULL, payload VARCHAR(500) NOT NULL)");
            }
            tableReady = true;
        }
        return connection;
    }
}
