package io.github.resiliencestarter.sample;

import io.github.resiliencestarter.testsupport.RealServers;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sample application in a JVM of its own, on a loopback port it keeps: a test may kill it
 * (SIGKILL, in the middle of whatever it does) and start it again on the same port.
 */
final class SampleNode implements AutoCloseable {

    private final String name;

    private final int port;

    private final List<String> jvmOptions;

    private final List<String> arguments;

    private final Path log;

    private Process process;

    private SampleNode(String name, int port, List<String> jvmOptions, List<String> arguments) {
        this.name = name;
        this.port = port;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.arguments = List.copyOf(arguments);
        this.log = Path.of(System.getProperty("java.io.tmpdir"), "sample-node-" + name + "-" + port + ".log");
    }

    /**
     * The arguments that put the sample's orders, and a JDBC store's records, in the test command's
     * MariaDB (profile {@code mysql}).
     *
     * @return the arguments
     */
    static List<String> onMariaDb() {
        RealServers.Jdbc db = RealServers.jdbc();
        return List.of("--spring.profiles.active=mysql", "--spring.datasource.url=" + db.url(),
                "--spring.datasource.username=" + db.user(), "--spring.datasource.password=" + db.password());
    }

    /**
     * Starts a node on a free port; it may still be starting when this returns.
     *
     * @param name what the node is called in its log file's name
     * @param arguments the application's arguments, {@code --server.port} excepted
     * @return the node
     * @throws IOException when the JVM cannot be started
     */
    static SampleNode start(String name, List<String> arguments) throws IOException {
        return start(name, List.of(), arguments);
    }

    /**
     * Starts a node on a free port with options for its JVM; it may still be starting when this
     * returns.
     *
     * @param name what the node is called in its log file's name
     * @param jvmOptions options for its JVM, e.g. system properties
     * @param arguments the application's arguments, {@code --server.port} excepted
     * @return the node
     * @throws IOException when the JVM cannot be started
     */
    static SampleNode start(String name, List<String> jvmOptions, List<String> arguments) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        SampleNode node = new SampleNode(name, port, jvmOptions, arguments);
        node.restart();
        return node;
    }

    /**
     * Starts the JVM again on the same port, after a kill; its log goes on in the same file.
     *
     * @throws IOException when the JVM cannot be started
     */
    void restart() throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx384m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SampleApplication.class.getName(),
                "--server.port=" + port));
        command.addAll(arguments);
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /**
     * Waits until the node answers over HTTP.
     *
     * @param timeout how long to wait
     * @throws IllegalStateException when it died or did not answer within the timeout, with its log's end
     * @throws InterruptedException when interrupted while waiting
     */
    void awaitUp(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                http().faults(0, 0, 0);
                return;
            } catch (RuntimeException notYet) {
                if (!process.isAlive() || System.nanoTime() > until) {
                    throw new IllegalStateException("sample node " + name + " on port " + port + " did not come up "
                            + "within " + timeout + "; its log ends with:\n" + logTail(), notYet);
                }
                Thread.sleep(200);
            }
        }
    }

    /** @return a client of this node */
    SampleHttp http() {
        return new SampleHttp(port);
    }

    /** @return its port */
    int port() {
        return port;
    }

    /** @return whether its JVM runs */
    boolean alive() {
        return process.isAlive();
    }

    /**
     * Kills the JVM (SIGKILL) and waits until it is gone.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** @return the last 40 lines of its log */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException ex) {
            return "(unreadable: " + ex + ")";
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        return name + "@" + port;
    }
}
