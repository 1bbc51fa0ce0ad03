package io.github.resiliencestarter.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A mariadbd process of a test's own, with a throwaway data directory, that the test may kill and
 * start again on the same port and data (outage tests). Needs mariadb-server, which
 * {@code scripts/test.sh} installs; fails loudly otherwise.
 */
public final class DisposableMariaDb implements AutoCloseable {

    private final int port;

    private final Path dir;

    private Process process;

    private DisposableMariaDb(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    /**
     * Creates a data directory with a {@code resilience} database and user, and starts the server.
     *
     * @return the running server
     * @throws Exception when it cannot be created or started
     */
    public static DisposableMariaDb start() throws Exception {
        int port = LoopbackPorts.free();
        Path dir = Files.createTempDirectory("disposable-mariadb");
        Process install = new ProcessBuilder("mariadb-install-db", "--no-defaults", "--user=root",
                "--datadir=" + dir.resolve("data"), "--auth-root-authentication-method=normal")
                .redirectErrorStream(true).redirectOutput(dir.resolve("install.log").toFile()).start();
        if (!install.waitFor(120, TimeUnit.SECONDS) || install.exitValue() != 0) {
            throw new IOException("mariadb-install-db failed; see " + dir.resolve("install.log"));
        }
        DisposableMariaDb db = new DisposableMariaDb(port, dir);
        db.resume();
        Process setup = new ProcessBuilder("mariadb", "--no-defaults", "-uroot", "--protocol=socket",
                "-S", dir.resolve("mysql.sock").toString(), "-e", "CREATE DATABASE resilience; CREATE USER"
                        + " 'resilience'@'127.0.0.1' IDENTIFIED BY 'resilience'; GRANT ALL ON *.* TO"
                        + " 'resilience'@'127.0.0.1'; FLUSH PRIVILEGES;").redirectErrorStream(true).start();
        String output = new String(setup.getInputStream().readAllBytes());
        if (!setup.waitFor(30, TimeUnit.SECONDS) || setup.exitValue() != 0) {
            db.close();
            throw new IOException("database setup failed: " + output);
        }
        return db;
    }

    /** @return a JDBC URL of the {@code resilience} database (user and password {@code resilience}) */
    public String url() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/resilience";
    }

    /**
     * Starts the server again on the same port and data.
     *
     * @throws Exception when it does not come up
     */
    public void resume() throws Exception {
        String binary = new File("/usr/sbin/mariadbd").canExecute() ? "/usr/sbin/mariadbd" : "mariadbd";
        process = new ProcessBuilder(List.of(binary, "--no-defaults", "--user=root", "--datadir=" + dir.resolve("data"),
                "--bind-address=127.0.0.1", "--port=" + port, "--socket=" + dir.resolve("mysql.sock"),
                "--skip-name-resolve", "--pid-file=" + dir.resolve("mariadb.pid"), "--log-error="
                        + dir.resolve("mariadb.log"))).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        LoopbackPorts.awaitListening(port, "mariadbd", Duration.ofSeconds(60));
    }

    /**
     * Kills the server (SIGKILL: an outage, not a shutdown).
     *
     * @throws InterruptedException when interrupted while waiting for it to end
     */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
