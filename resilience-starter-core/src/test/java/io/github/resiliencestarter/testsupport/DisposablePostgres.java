package io.github.resiliencestarter.testsupport;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.springframework.util.FileSystemUtils;

/**
 * A PostgreSQL server of a test's own, with a throwaway data directory, that the test may crash
 * and start again on the same port and data (outage tests). Needs Debian's {@code postgresql}
 * package, which {@code scripts/test.sh} installs; fails loudly otherwise. As root it runs the
 * server as the {@code postgres} user, since PostgreSQL refuses to run as root.
 */
public final class DisposablePostgres implements AutoCloseable {

    /** User and password of the server's superuser. */
    public static final String USER = "resilience";

    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final int port;

    private final Path dir;

    private final Path bin;

    private final List<HikariDataSource> dataSources = new ArrayList<>();

    private boolean running;

    private DisposablePostgres(int port, Path dir, Path bin) {
        this.port = port;
        this.dir = dir;
        this.bin = bin;
    }

    /**
     * Creates a data directory and starts the server.
     *
     * @return the running server
     * @throws Exception when it cannot be created or started
     */
    public static DisposablePostgres start() throws Exception {
        Path bin = serverPrograms();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path dir = Files.createTempDirectory("disposable-postgres");
        if (ROOT) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setOwner(dir, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres"));
        }
        Path passwordFile = dir.resolve("password");
        Files.writeString(passwordFile, USER + "\n", StandardCharsets.UTF_8);
        DisposablePostgres server = new DisposablePostgres(port, dir, bin);
        server.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
                "--pwfile=" + passwordFile, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C"), "initdb");
        server.resume();
        return server;
    }

    /** @return a JDBC URL of the server's {@code postgres} database (user and password {@link #USER}) */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /**
     * A small pool on this server, closed with it. Its short timeouts make an outage show within
     * half a second instead of the pool's default of thirty.
     *
     * @return the data source
     */
    public synchronized HikariDataSource dataSource() {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(url());
        dataSource.setUsername(USER);
        dataSource.setPassword(USER);
        dataSource.setMaximumPoolSize(4);
        dataSource.setConnectionTimeout(500);
        dataSource.setValidationTimeout(250);
        dataSources.add(dataSource);
        return dataSource;
    }

    /**
     * Starts the server again on the same port and data (after {@link #kill()}, with crash recovery).
     *
     * @throws Exception when it does not come up
     */
    public synchronized void resume() throws Exception {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("server.log").toString(), "-w", "-t", "60", "-o", "-p " + port + " -k " + dir
                        + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"), "pg_ctl start");
        running = true;
    }

    /**
     * Crashes the server: an immediate shutdown ends every server process at once, without a
     * checkpoint, as a power cut would; open connections break.
     *
     * @throws Exception when it does not stop
     */
    public synchronized void kill() throws Exception {
        if (running) {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate",
                    "-w", "stop"), "pg_ctl stop");
            running = false;
        }
    }

    @Override
    public synchronized void close() throws Exception {
        dataSources.forEach(HikariDataSource::close);
        kill();
        FileSystemUtils.deleteRecursively(dir);
    }

    private void run(List<String> command, String what) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (ROOT) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path log = Files.createTempFile("disposable-postgres", ".log");
        try {
            Process process = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException(what + " failed: " + Files.readString(log));
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Debian keeps the server programs out of PATH, one folder per major version: the newest. */
    private static Path serverPrograms() throws IOException {
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> folders = Files.list(versions)) {
                Path newest = folders.map(folder -> folder.resolve("bin"))
                        .filter(folder -> Files.isExecutable(folder.resolve("pg_ctl")))
                        .max(Comparator.comparingInt(DisposablePostgres::majorVersion)).orElse(null);
                if (newest != null) {
                    return newest;
                }
            }
        }
        throw new IllegalStateException("No PostgreSQL server programs under /usr/lib/postgresql: install Debian's"
                + " postgresql package (scripts/test.sh does). Tests do not skip.");
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException ex) {
            return -1;
        }
    }
}
