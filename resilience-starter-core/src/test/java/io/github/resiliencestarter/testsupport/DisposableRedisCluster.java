package io.github.resiliencestarter.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis Cluster of three masters of a test's own, on loopback ports at most 55 535 (the cluster
 * bus listens on port + 10 000). Needs {@code redis-server} and {@code redis-cli}, which
 * {@code scripts/test.sh} installs; fails loudly otherwise.
 */
public final class DisposableRedisCluster implements AutoCloseable {

    private final List<Process> nodes = new ArrayList<>();

    private final List<Integer> ports = new ArrayList<>();

    private DisposableRedisCluster() {
    }

    /**
     * Starts three masters and joins them into a cluster.
     *
     * @return the running cluster
     * @throws IOException when a node or the cluster cannot be created
     * @throws InterruptedException when interrupted while waiting
     */
    public static DisposableRedisCluster start() throws IOException, InterruptedException {
        DisposableRedisCluster cluster = new DisposableRedisCluster();
        try {
            for (int i = 0; i < 3; i++) {
                int port = freePortBelowBusLimit();
                Path dir = Files.createTempDirectory("redis-cluster-" + port);
                cluster.ports.add(port);
                cluster.nodes.add(new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind",
                        "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", dir.resolve("nodes.conf")
                                .toString(), "--save", "", "--appendonly", "no", "--dir", dir.toString())
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start());
            }
            for (int port : cluster.ports) {
                LoopbackPorts.awaitListening(port, "redis-server", Duration.ofSeconds(10));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.ports.forEach(port -> create.add("127.0.0.1:" + port));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Process creating = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(creating.getInputStream().readAllBytes());
            if (!creating.waitFor(30, TimeUnit.SECONDS) || creating.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + output);
            }
            cluster.waitUntilOk();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException ex) {
            cluster.close();
            throw ex;
        }
    }

    /** @return the nodes as {@code host:port} */
    public List<String> nodes() {
        return ports.stream().map(port -> "127.0.0.1:" + port).toList();
    }

    @Override
    public void close() {
        nodes.forEach(Process::destroyForcibly);
    }

    private void waitUntilOk() throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            Process info = new ProcessBuilder("redis-cli", "-p", Integer.toString(ports.get(0)), "cluster", "info")
                    .redirectErrorStream(true).start();
            String output = new String(info.getInputStream().readAllBytes());
            info.waitFor(5, TimeUnit.SECONDS);
            if (output.contains("cluster_state:ok")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("the Redis cluster did not reach cluster_state:ok");
    }

    private static int freePortBelowBusLimit() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket socket = new ServerSocket(0)) {
                int port = socket.getLocalPort();
                if (port <= 55_535) {
                    try (ServerSocket bus = new ServerSocket(port + 10_000)) {
                        return port;
                    } catch (IOException busTaken) {
                        // try another
                    }
                }
            }
        }
        throw new IOException("no free port pair below 55535");
    }
}
