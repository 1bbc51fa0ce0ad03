package io.github.resiliencestarter.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Cluster of three masters of a test's own, with or without a replica each, on loopback
 * ports at most 55 535 (the cluster bus listens on port + 10 000), which the test may fail over,
 * freeze or kill. A node that stops answering for a second is failed over to its replica. Needs
 * {@code redis-server} and {@code redis-cli}, which {@code scripts/test.sh} installs; fails loudly
 * otherwise.
 */
public final class DisposableRedisCluster implements AutoCloseable {

    private static final int MASTERS = 3;

    /** Short, so that a failover by a killed or frozen master takes a few seconds, not fifteen. */
    private static final String NODE_TIMEOUT_MILLIS = "1000";

    private final Map<Integer, Process> nodes = new LinkedHashMap<>();

    private final Map<Integer, Path> dirs = new LinkedHashMap<>();

    private DisposableRedisCluster() {
    }

    /**
     * Starts three masters without replicas and joins them into a cluster.
     *
     * @return the running cluster
     * @throws IOException when a node or the cluster cannot be created
     * @throws InterruptedException when interrupted while waiting
     */
    public static DisposableRedisCluster start() throws IOException, InterruptedException {
        return start(0);
    }

    /**
     * Starts three masters with {@code replicasPerMaster} replicas each and joins them into a
     * cluster, every replica in sync.
     *
     * @param replicasPerMaster replicas of each master
     * @return the running cluster
     * @throws IOException when a node or the cluster cannot be created
     * @throws InterruptedException when interrupted while waiting
     */
    public static DisposableRedisCluster start(int replicasPerMaster) throws IOException, InterruptedException {
        DisposableRedisCluster cluster = new DisposableRedisCluster();
        try {
            for (int i = 0; i < MASTERS * (1 + replicasPerMaster); i++) {
                int port = cluster.freePortBelowBusLimit();
                cluster.dirs.put(port, Files.createTempDirectory("redis-cluster-" + port));
                cluster.startNode(port);
            }
            for (int port : cluster.nodes.keySet()) {
                LoopbackPorts.awaitListening(port, "redis-server", Duration.ofSeconds(10));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.nodes().forEach(create::add);
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
            Process creating = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(creating.getInputStream().readAllBytes());
            if (!creating.waitFor(30, TimeUnit.SECONDS) || creating.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + output);
            }
            cluster.awaitSettled(Duration.ofSeconds(30));
            cluster.awaitReplicasOnline(replicasPerMaster, Duration.ofSeconds(30));
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException ex) {
            cluster.close();
            throw ex;
        }
    }

    /**
     * Waits until every master has its replicas online: connected and done with their first full
     * copy. Right after {@code --cluster create} a node that is to be a replica may still report
     * itself a master, which {@link #awaitSettled} accepts, or still be loading that copy, when it
     * acknowledges nothing (a test's first claims were refused "acknowledged by 0 of 1" in a
     * CI-like run on Boot 4).
     */
    private void awaitReplicasOnline(int replicasPerMaster, Duration timeout)
            throws IOException, InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < until) {
            List<Integer> masters = masters();
            boolean online = masters.size() == MASTERS;
            for (int port : nodes.keySet()) {
                last = RedisCli.call(port, "info", "replication");
                // a master's view (its replicas online) and each replica's own (done loading the copy)
                online &= masters.contains(port) ? onlineReplicas(last) >= replicasPerMaster
                        : last.contains("master_link_status:up");
            }
            if (online) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("the masters' replicas did not come online within " + timeout + ": "
                + last.replaceAll("\\R", " "));
    }

    /** Replicas a master's {@code INFO replication} lists as {@code state=online}. */
    private static int onlineReplicas(String replicationInfo) {
        int online = 0;
        for (String line : replicationInfo.split("\\R")) {
            if (line.startsWith("slave") && line.contains("state=online")) {
                online++;
            }
        }
        return online;
    }

    private void startNode(int port) throws IOException {
        Path dir = dirs.get(port);
        // nodes.conf stays in the node's directory: a node started again rejoins as what the cluster made it
        nodes.put(port, new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--cluster-enabled", "yes", "--cluster-config-file", dir.resolve("nodes.conf").toString(),
                "--cluster-node-timeout", NODE_TIMEOUT_MILLIS, "--cluster-replica-validity-factor", "0", "--save", "",
                "--appendonly", "no", "--dir", dir.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile())).start());
    }

    /** @return the nodes as {@code host:port} */
    public List<String> nodes() {
        return nodes.keySet().stream().map(port -> "127.0.0.1:" + port).toList();
    }

    /**
     * A Lettuce connection factory on this cluster, started, with a short command timeout, as an
     * application would configure it.
     *
     * @param commandTimeout the command timeout
     * @return the factory; the caller destroys it
     */
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisClusterConfiguration(nodes()),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * The masters now, as the first node that answers sees them.
     *
     * @return their ports
     * @throws IOException when no node answers
     * @throws InterruptedException when interrupted while waiting
     */
    public List<Integer> masters() throws IOException, InterruptedException {
        return roles().entrySet().stream().filter(node -> node.getValue().master()).map(Map.Entry::getKey).toList();
    }

    /**
     * A manual failover ({@code CLUSTER FAILOVER} sent to a replica of {@code master}): the master
     * stops taking writes, its replica catches up and takes its slots over. Waits until the former
     * master reports itself a replica.
     *
     * @param master the master's port
     * @return {@code true} once the roles have swapped
     * @throws IOException when no replica answers
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean failover(int master) throws IOException, InterruptedException {
        int replica = replicaOf(master);
        RedisCli.call(replica, "cluster", "failover");
        return awaitRole(replica, "master", Duration.ofSeconds(30)) && awaitRole(master, "slave", Duration.ofSeconds(30))
                && awaitSettled(Duration.ofSeconds(30));
    }

    /**
     * Stops a node for a while (SIGSTOP, then SIGCONT): it neither answers nor loses its
     * connections, and wakes up believing it is still what it was. {@code meanwhile} runs while it
     * is stopped; the node wakes after {@code pause} or once {@code meanwhile} is done, whichever
     * is later.
     *
     * @param port the node's port
     * @param pause how long it stays stopped at least
     * @param meanwhile what to do while it is stopped
     * @throws Exception what {@code meanwhile} throws, or when the signals cannot be sent
     */
    public void freeze(int port, Duration pause, Frozen meanwhile) throws Exception {
        Process node = nodes.get(port);
        long until = System.nanoTime() + pause.toNanos();
        RedisCli.signal("STOP", node);
        try {
            meanwhile.run();
            long left = until - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        } finally {
            RedisCli.signal("CONT", node);
        }
    }

    /** What a test does while a node is frozen. */
    @FunctionalInterface
    public interface Frozen {

        /**
         * Does it.
         *
         * @throws Exception whatever it throws
         */
        void run() throws Exception;
    }

    /**
     * Kills a node (SIGKILL).
     *
     * @param port the node's port
     * @throws InterruptedException when interrupted while waiting
     */
    public void kill(int port) throws InterruptedException {
        Process node = nodes.get(port);
        node.destroyForcibly();
        node.waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * Starts a killed node again on its port, empty but with its cluster configuration, so it
     * rejoins as a replica of whoever took its slots over; waits until every master has its
     * replicas in sync.
     *
     * @param port the killed node's port
     * @return {@code true} once the cluster settled
     * @throws IOException when it cannot be started
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean restart(int port) throws IOException, InterruptedException {
        startNode(port);
        LoopbackPorts.awaitListening(port, "redis-server", Duration.ofSeconds(10));
        return awaitRole(port, "slave", Duration.ofSeconds(30)) && awaitSettled(Duration.ofSeconds(60));
    }

    /**
     * Waits until a node reports a role.
     *
     * @param port the node's port
     * @param role {@code master} or {@code slave}
     * @param timeout how long to wait
     * @return whether it did within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitRole(int port, String role, Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            try {
                if (RedisCli.call(port, "info", "replication").contains("role:" + role)) {
                    return true;
                }
            } catch (IOException notNow) {
                // a frozen or restarting node: ask again
            }
            Thread.sleep(50);
        }
        return false;
    }

    /**
     * Waits until the cluster is {@code ok} on every live node and every live replica's link to its
     * master is up.
     *
     * @param timeout how long to wait
     * @return {@code true}
     * @throws IOException when it does not settle within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitSettled(Duration timeout) throws IOException, InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < until) {
            boolean settled = true;
            for (Map.Entry<Integer, Process> node : nodes.entrySet()) {
                if (!node.getValue().isAlive()) {
                    continue;
                }
                try {
                    last = RedisCli.call(node.getKey(), "cluster", "info");
                    String replication = RedisCli.call(node.getKey(), "info", "replication");
                    settled &= last.contains("cluster_state:ok") && (replication.contains("role:master")
                            || replication.contains("master_link_status:up"));
                } catch (IOException notNow) {
                    settled = false;
                }
            }
            if (settled) {
                return true;
            }
            Thread.sleep(100);
        }
        throw new IOException("the Redis cluster did not settle within " + timeout + ": "
                + last.replaceAll("\\R", " "));
    }

    /**
     * A replica of a master.
     *
     * @param master the master's port
     * @return the replica's port
     * @throws IOException when it has none, or no node answers
     * @throws InterruptedException when interrupted while waiting
     */
    public int replicaOf(int master) throws IOException, InterruptedException {
        Map<Integer, Role> roles = roles();
        String masterId = roles.get(master).id();
        return roles.entrySet().stream().filter(node -> masterId.equals(node.getValue().masterId()))
                .map(Map.Entry::getKey).findFirst()
                .orElseThrow(() -> new IOException("no replica of the master on port " + master));
    }

    /** Every node's role, from {@code CLUSTER NODES} as the first live node sees it. */
    private Map<Integer, Role> roles() throws IOException, InterruptedException {
        IOException last = new IOException("no node of the cluster is alive");
        for (Map.Entry<Integer, Process> node : nodes.entrySet()) {
            if (!node.getValue().isAlive()) {
                continue;
            }
            try {
                Map<Integer, Role> roles = new LinkedHashMap<>();
                for (String line : RedisCli.call(node.getKey(), "cluster", "nodes").split("\\R")) {
                    String[] fields = line.trim().split(" ");
                    if (fields.length < 8) {
                        continue;
                    }
                    // <id> <ip:port@bus> <flags> <master id or -> ...
                    String address = fields[1];
                    int port = Integer.parseInt(address.substring(address.indexOf(':') + 1, address.indexOf('@')));
                    String flags = fields[2];
                    roles.put(port, new Role(fields[0], flags.contains("master") && !flags.contains("fail"),
                            fields[3]));
                }
                return roles;
            } catch (IOException ex) {
                last = ex;
            }
        }
        throw last;
    }

    /** A node as {@code CLUSTER NODES} lists it. */
    private record Role(String id, boolean master, String masterId) {
    }

    @Override
    public void close() {
        nodes.values().forEach(Process::destroyForcibly);
    }

    /**
     * A free port whose bus port is free too, neither of them a port or bus port of a node already
     * chosen: a node's port is free again until its server binds it, so the system may hand the
     * same port out twice (a run of 2026-12-07 made a cluster of five nodes out of six that way).
     */
    private int freePortBelowBusLimit() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket socket = new ServerSocket(0)) {
                int port = socket.getLocalPort();
                boolean clashes = dirs.keySet().stream().anyMatch(chosen -> chosen == port || chosen + 10_000 == port
                        || chosen == port + 10_000);
                if (port <= 55_535 && !clashes) {
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
