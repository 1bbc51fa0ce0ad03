package io.github.resiliencestarter.testsupport.contract;

import io.github.resiliencestarter.testsupport.Eventually;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A second process of a module's application: the same main class on this JVM's class path, the
 * same store and effects table, in a JVM of its own that a case kills with {@code SIGKILL} while
 * its work is under way. In it, every execution of {@link ContractWork} writes its effect in a
 * transaction it never commits and then waits; the kill ends the connection, so the database rolls
 * the effect back, as it would for any process killed before its commit. The application announces
 * its ports on standard output ({@link #announce}); the work announces that it is mid-work.
 */
public final class ContractProcess implements AutoCloseable {

    /** Set in the second process only: its executions die mid-work. */
    static final String DIES_MID_WORK = "contract.dies-mid-work";

    /** The lease of the second process's claims: what a duplicate waits for after the kill, at most. */
    public static final Duration LEASE = Duration.ofSeconds(2);

    private static final String PORT = "contract-port ";

    private static final String MID_WORK = "contract-mid-work ";

    private static final int KEPT_LINES = 200;

    private final Process process;

    private final Map<String, Integer> ports = new ConcurrentHashMap<>();

    private final Map<String, Boolean> midWork = new ConcurrentHashMap<>();

    private final Deque<String> lastLines = new ArrayDeque<>();

    private final List<Runnable> onClose = new ArrayList<>();

    private ContractProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "contract-process-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code application}'s main class in a JVM of its own, for one of its entry points.
     *
     * @param application the module's application class, with a {@code main} method
     * @param entryPoint the entry point the case drives there, as {@code --contract.entry-point}
     * @param arguments more arguments for the application
     * @return the process, starting
     */
    public static ContractProcess start(Class<?> application, String entryPoint, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx384m", "-XX:TieredStopAtLevel=1", "-D" + DIES_MID_WORK + "=true", "-cp",
                System.getProperty("java.class.path"), application.getName(), "--logging.level.root=WARN",
                "--resilience.idempotent.lease=" + LEASE.toMillis() + "ms", "--contract.entry-point=" + entryPoint));
        command.addAll(arguments);
        try {
            return new ContractProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException ex) {
            throw new UncheckedIOException("the second process did not start", ex);
        }
    }

    /**
     * Called by an application in its {@code main}: tells the test where an entry point listens.
     *
     * @param entryPoint the entry point's name
     * @param port its port
     */
    public static void announce(String entryPoint, int port) {
        System.out.println(PORT + entryPoint + " " + port);
        System.out.flush();
    }

    /** Whether this JVM is a second process, whose executions die mid-work. */
    static boolean diesMidWork() {
        return Boolean.getBoolean(DIES_MID_WORK);
    }

    /** Told by {@link ContractWork} in the second process once its effect is written, uncommitted. */
    static void announceMidWork(String key) {
        System.out.println(MID_WORK + key);
        System.out.flush();
    }

    /**
     * The port an entry point of this process listens on, once announced.
     *
     * @param entryPoint the entry point's name
     * @return its port
     */
    public int port(String entryPoint) {
        try {
            Eventually.waitUntil("the second process announcing " + entryPoint,
                    () -> ports.containsKey(entryPoint) || !process.isAlive());
        } catch (AssertionError late) {
            throw new AssertionError(late.getMessage() + "\n" + output(), late);
        }
        Integer port = ports.get(entryPoint);
        if (port == null) {
            throw new AssertionError("the second process ended before it announced " + entryPoint + "\n" + output());
        }
        return port;
    }

    /**
     * Waits until an execution of {@code key} in this process has written its effect, uncommitted.
     *
     * @param key the idempotency key
     */
    public void awaitMidWork(String key) {
        Eventually.waitUntil("the second process mid-work on " + key, () -> midWork.containsKey(key));
    }

    /**
     * Runs {@code action} when this process is closed: a client of it to shut down.
     *
     * @param action what to run
     */
    public synchronized void onClose(Runnable action) {
        onClose.add(action);
    }

    /** Kills the process with {@code SIGKILL} and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the second process outlived its SIGKILL");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while killing the second process", ex);
        }
    }

    @Override
    public void close() {
        List<Runnable> actions;
        synchronized (this) {
            actions = List.copyOf(onClose);
        }
        actions.forEach(Runnable::run);
        if (process.isAlive()) {
            kill();
        }
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(PORT)) {
                    String[] parts = line.substring(PORT.length()).split(" ");
                    ports.put(parts[0], Integer.parseInt(parts[1]));
                } else if (line.startsWith(MID_WORK)) {
                    midWork.put(line.substring(MID_WORK.length()), Boolean.TRUE);
                }
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > KEPT_LINES) {
                        lastLines.removeFirst();
                    }
                }
            }
        } catch (IOException ex) {
            // the process is gone: what it said is kept
        }
    }

    private String output() {
        synchronized (lastLines) {
            return String.join("\n", lastLines);
        }
    }
}
