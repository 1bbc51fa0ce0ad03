package io.github.resiliencestarter.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code redis-cli} against a loopback node, and signals to a server process: how the topologies are driven. */
public final class RedisCli {

    private RedisCli() {
    }

    /**
     * Runs one command.
     *
     * @param port the node's port on 127.0.0.1
     * @param arguments the command and its arguments
     * @return what redis-cli printed
     * @throws IOException when it fails or takes over 5 s
     * @throws InterruptedException when interrupted while waiting
     */
    public static String call(int port, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("redis-cli " + String.join(" ", arguments) + " failed: " + output);
        }
        return output;
    }

    /**
     * Sends a signal to a server process ({@code STOP} freezes it, {@code CONT} wakes it).
     *
     * @param name the signal's name
     * @param process the process
     * @throws IOException when it cannot be sent
     * @throws InterruptedException when interrupted while waiting
     */
    public static void signal(String name, Process process) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }
}
