package io.github.resiliencestarter.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Sentinel setup of a test's own: one master, one replica or more and three sentinels (quorum 2)
 * on loopback ports, which the test may fail over, freeze or kill. Started {@linkplain
 * #startProxied(int) proxied}, every data node sits behind a {@link FaultProxy} of its own and
 * announces the proxy's port, so clients, sentinels and replicas all reach it through the proxy,
 * which the test may reset or stall. Needs {@code redis-server} (run
 * with {@code --sentinel} for the sentinels, as Debian's {@code redis-sentinel} does) and
 * {@code redis-cli}, which {@code scripts/test.sh} installs; fails loudly otherwise.
 */
public final class DisposableRedisSentinel implements AutoCloseable {

    /** The name the sentinels monitor the master under. */
    public static final String MASTER_NAME = "resilience";

    private final List<Process> processes = new ArrayList<>();

    private final List<Integer> dataPorts = new ArrayList<>();

    private final List<Process> dataProcesses = new ArrayList<>();

    private final List<Integer> sentinelPorts = new ArrayList<>();

    /** Per data node's announced port, when proxied: the proxy in front of it. */
    private final Map<Integer, FaultProxy> proxies = new LinkedHashMap<>();

    /** Per data node's announced port, when proxied: the port the server itself listens on. */
    private final Map<Integer, Integer> serverPorts = new LinkedHashMap<>();

    private int replicas = 1;

    private DisposableRedisSentinel() {
    }

    /**
     * Starts the master, its replica and three sentinels, and waits until every sentinel sees the
     * replica and the two other sentinels.
     *
     * @return the running setup
     * @throws IOException when a server cannot be started or the setup does not settle
     * @throws InterruptedException when interrupted while waiting
     */
    public static DisposableRedisSentinel start() throws IOException, InterruptedException {
        return start(1);
    }

    /**
     * Starts the master, {@code replicas} replicas and three sentinels, and waits until every
     * sentinel sees every replica and the two other sentinels.
     *
     * @param replicas how many replicas
     * @return the running setup
     * @throws IOException when a server cannot be started or the setup does not settle
     * @throws InterruptedException when interrupted while waiting
     */
    public static DisposableRedisSentinel start(int replicas) throws IOException, InterruptedException {
        return start(replicas, false);
    }

    /**
     * Starts the master, {@code replicas} replicas and three sentinels, each data node behind a
     * fault proxy of its own, whose port it announces; waits until every sentinel sees every
     * replica and the two other sentinels.
     *
     * @param replicas how many replicas
     * @return the running setup
     * @throws IOException when a server cannot be started or the setup does not settle
     * @throws InterruptedException when interrupted while waiting
     */
    public static DisposableRedisSentinel startProxied(int replicas) throws IOException, InterruptedException {
        return start(replicas, true);
    }

    private static DisposableRedisSentinel start(int replicas, boolean proxied)
            throws IOException, InterruptedException {
        DisposableRedisSentinel setup = new DisposableRedisSentinel();
        setup.replicas = replicas;
        try {
            int master = setup.newDataPort(proxied);
            setup.startData(master, List.of());
            for (int i = 0; i < replicas; i++) {
                setup.startData(setup.newDataPort(proxied),
                        List.of("--replicaof", "127.0.0.1", Integer.toString(master)));
            }
            for (int i = 0; i < 3; i++) {
                setup.startSentinel(LoopbackPorts.free(), master);
            }
            setup.awaitSettled(master);
            return setup;
        } catch (IOException | InterruptedException | RuntimeException ex) {
            setup.close();
            throw ex;
        }
    }

    /** A port for a new data node: its own, or that of a new proxy in front of it. */
    private int newDataPort(boolean proxied) throws IOException {
        int server = LoopbackPorts.free();
        if (!proxied) {
            return server;
        }
        FaultProxy proxy = FaultProxy.to("127.0.0.1", server);
        proxies.put(proxy.port(), proxy);
        serverPorts.put(proxy.port(), server);
        return proxy.port();
    }

    /** @return the ports to reach every data node on directly, past its proxy if it has one */
    public List<Integer> directPorts() {
        return dataPorts.stream().map(this::direct).toList();
    }

    /** The port to reach a data node on directly, past its proxy: how this class asks it questions. */
    private int direct(int port) {
        return serverPorts.getOrDefault(port, port);
    }

    /**
     * The fault proxy in front of a data node, when started proxied.
     *
     * @param port the node's announced port (as {@link #masterPort()} names it)
     * @return its proxy
     */
    public FaultProxy proxy(int port) {
        FaultProxy proxy = proxies.get(port);
        if (proxy == null) {
            throw new IllegalArgumentException("no proxy in front of port " + port + " (started proxied?)");
        }
        return proxy;
    }

    /** @return the fault proxies in front of the data nodes, when started proxied; else none */
    public Collection<FaultProxy> proxies() {
        return proxies.values();
    }

    /** @return the sentinels as {@code host:port} */
    public List<String> sentinels() {
        return sentinelPorts.stream().map(port -> "127.0.0.1:" + port).toList();
    }

    /**
     * A connection factory that finds the master through the sentinels, as Boot's
     * {@code spring.data.redis.sentinel.*} builds it.
     *
     * @param commandTimeout Lettuce's command timeout
     * @return the started factory; the caller destroys it
     */
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(MASTER_NAME);
        sentinelPorts.forEach(port -> configuration.addSentinel(new RedisNode("127.0.0.1", port)));
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * The port of the node the sentinels currently name as master.
     *
     * @return the port
     * @throws IOException when no sentinel answers
     * @throws InterruptedException when interrupted while waiting
     */
    public int masterPort() throws IOException, InterruptedException {
        String answer = RedisCli.call(sentinelPorts.get(0), "sentinel", "get-master-addr-by-name", MASTER_NAME);
        String[] lines = answer.trim().split("\\R");
        return Integer.parseInt(lines[lines.length - 1].trim());
    }

    /**
     * Asks the sentinels for a failover (the graceful {@code SENTINEL FAILOVER}: the old master stays
     * up and is demoted later) and waits until they name the replica as master.
     *
     * @return the port of the former master
     * @throws IOException when the failover does not happen within 30 s
     * @throws InterruptedException when interrupted while waiting
     */
    public int failover() throws IOException, InterruptedException {
        int former = masterPort();
        String answer = RedisCli.call(sentinelPorts.get(0), "sentinel", "failover", MASTER_NAME);
        if (!answer.trim().equals("OK")) {
            throw new IOException("SENTINEL FAILOVER refused: " + answer.trim());
        }
        if (!awaitMasterOtherThan(former, Duration.ofSeconds(30))) {
            throw new IOException("the sentinels did not promote the replica within 30 s");
        }
        return former;
    }

    /**
     * A graceful failover, then the wait until the former master has been demoted to a replica
     * (until then it keeps taking the writes of clients still connected to it).
     *
     * @return whether it was demoted within 60 s
     * @throws IOException when the failover does not happen
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean failoverAndAwaitDemotion() throws IOException, InterruptedException {
        return awaitRole(failover(), "slave", Duration.ofSeconds(60));
    }

    /**
     * Waits until a node reports the given role ({@code master} or {@code slave}).
     *
     * @param port the node
     * @param role the role {@code INFO replication} reports
     * @param timeout how long to wait
     * @return whether it did
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitRole(int port, String role, Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                if (RedisCli.call(direct(port), "info", "replication").contains("role:" + role)) {
                    return true;
                }
            } catch (IOException notNow) {
                // a frozen or restarting node: ask again
            }
            if (System.nanoTime() >= until) {
                return false;
            }
            Thread.sleep(50);
        }
    }

    /**
     * Stops the current master for a while (SIGSTOP, then SIGCONT): it neither answers nor loses
     * its connections, and wakes up believing it is still the master.
     *
     * @param pause how long it stays stopped
     * @return the port of the frozen master
     * @throws IOException when the signals cannot be sent
     * @throws InterruptedException when interrupted while waiting
     */
    public int freezeMaster(Duration pause) throws IOException, InterruptedException {
        int port = masterPort();
        Process master = dataProcesses.get(dataPorts.indexOf(port));
        RedisCli.signal("STOP", master);
        try {
            Thread.sleep(pause.toMillis());
        } finally {
            RedisCli.signal("CONT", master);
        }
        return port;
    }

    /**
     * Kills the current master (SIGKILL).
     *
     * @return the port it listened on
     * @throws IOException when no sentinel answers
     * @throws InterruptedException when interrupted while waiting
     */
    public int killMaster() throws IOException, InterruptedException {
        int port = masterPort();
        Process master = dataProcesses.get(dataPorts.indexOf(port));
        master.destroyForcibly();
        master.waitFor(10, TimeUnit.SECONDS);
        return port;
    }

    /**
     * Starts a killed node again, empty, on its port as a replica of the current master (as the
     * configuration Sentinel rewrites on a demoted node would), and waits until the master the
     * sentinels name has every replica in sync.
     *
     * @param port the killed node's port
     * @return {@code true} once it rejoined as a synchronised replica
     * @throws IOException when it cannot be started, or does not synchronise within 60 s
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean restartAsReplica(int port) throws IOException, InterruptedException {
        // an empty node back on the old master's address while a sentinel still names it, or a
        // failover is still under way, can be made master again and wipe the promoted one (Redis
        // warns against restarting a master without persistence): an operator waits until every
        // sentinel names one new master, which reports itself master (or the two would replicate
        // from each other)
        int master = awaitAgreedMaster(port, Duration.ofSeconds(30));
        int index = dataPorts.indexOf(port);
        dataPorts.remove(index);
        dataProcesses.remove(index);
        startData(port, List.of("--replicaof", "127.0.0.1", Integer.toString(master)));
        // the sentinels may still reshuffle roles while they finish the failover: what counts is
        // that the master they name ends up with a replica in sync
        return awaitReplicasInSync(Duration.ofSeconds(60));
    }

    /**
     * Waits until the master the sentinels name reports itself a master with every replica online.
     *
     * @param timeout how long to wait
     * @return {@code true}
     * @throws IOException when that does not happen within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitReplicasInSync(Duration timeout) throws IOException, InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        String replication = "";
        while (System.nanoTime() < until) {
            try {
                replication = RedisCli.call(direct(masterPort()), "info", "replication");
                if (replication.contains("role:master")
                        && replication.split("state=online", -1).length - 1 >= replicas) {
                    return true;
                }
            } catch (IOException notNow) {
                // a node reloading its data: ask again
            }
            Thread.sleep(100);
        }
        throw new IOException("no master with every replica in sync within " + timeout + ": "
                + replication.replaceAll("\\R", " "));
    }

    /**
     * Waits until every sentinel names {@code master} and none of them has a failover under way.
     *
     * @param master the promoted node's port
     * @param timeout how long to wait
     * @throws IOException when they do not agree within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    private int awaitAgreedMaster(int notThis, Duration timeout) throws IOException, InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < until) {
            String named = null;
            boolean agreed = true;
            for (int port : sentinelPorts) {
                last = RedisCli.call(port, "sentinel", "master", MASTER_NAME);
                String master = field(last, "port");
                if (field(last, "flags").contains("failover") || master.equals(Integer.toString(notThis))
                        || (named != null && !named.equals(master))) {
                    agreed = false;
                    break;
                }
                named = master;
            }
            if (agreed && named != null && awaitRole(Integer.parseInt(named), "master", Duration.ZERO)) {
                return Integer.parseInt(named);
            }
            Thread.sleep(100);
        }
        throw new IOException("the sentinels did not all name one master other than " + notThis
                + " with the failover done within " + timeout.toSeconds() + " s: " + last.replaceAll("\\R", " "));
    }

    /**
     * Waits until the sentinels name another node than the given one as master.
     *
     * @param former the former master's port
     * @param timeout how long to wait
     * @return whether they did
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitMasterOtherThan(int former, Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            try {
                if (masterPort() != former) {
                    return true;
                }
            } catch (IOException notNow) {
                // the sentinel is busy electing: ask again
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Override
    public void close() {
        proxies.values().forEach(FaultProxy::close);
        processes.forEach(Process::destroyForcibly);
        for (Process process : processes) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Starts a data node announced on {@code port}: its own port, or its proxy's. */
    private void startData(int port, List<String> extra) throws IOException, InterruptedException {
        int server = direct(port);
        Path dir = Files.createTempDirectory("redis-sentinel-data-" + server);
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(server), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()));
        if (server != port) {
            // the master lists it, and the sentinels name it, at its proxy's address
            command.addAll(List.of("--replica-announce-ip", "127.0.0.1", "--replica-announce-port",
                    Integer.toString(port)));
        }
        command.addAll(extra);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        processes.add(process);
        dataProcesses.add(process);
        dataPorts.add(port);
        LoopbackPorts.awaitListening(server, "redis-server", Duration.ofSeconds(10));
    }

    private void startSentinel(int port, int master) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("redis-sentinel-" + port);
        // the sentinel rewrites its file as it learns the topology: it must be its own and writable
        Path conf = dir.resolve("sentinel.conf");
        Files.writeString(conf, String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                "sentinel failover-timeout " + MASTER_NAME + " 5000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                ""), StandardCharsets.UTF_8);
        processes.add(new ProcessBuilder("redis-server", conf.toString(), "--sentinel").redirectErrorStream(true)
                .redirectOutput(dir.resolve("sentinel.log").toFile()).start());
        sentinelPorts.add(port);
        LoopbackPorts.awaitListening(port, "redis-server", Duration.ofSeconds(10));
    }

    private void awaitSettled(int master) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            if (everyReplicaIsLinked() && everySentinelSeesTheWholeSetup()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("the Sentinel setup around master " + master + " did not settle within 30 s");
    }

    private boolean everyReplicaIsLinked() throws IOException, InterruptedException {
        for (int port : dataPorts.subList(1, dataPorts.size())) {
            if (!RedisCli.call(direct(port), "info", "replication").contains("master_link_status:up")) {
                return false;
            }
        }
        return true;
    }

    private boolean everySentinelSeesTheWholeSetup() throws IOException, InterruptedException {
        for (int port : sentinelPorts) {
            String master = RedisCli.call(port, "sentinel", "master", MASTER_NAME);
            if (!field(master, "num-slaves").equals(Integer.toString(replicas))
                    || !field(master, "num-other-sentinels").equals("2")) {
                return false;
            }
        }
        return true;
    }

    /** A field of redis-cli's answer to {@code SENTINEL MASTER}, which prints names and values on alternate lines. */
    private static String field(String answer, String name) {
        String[] lines = answer.split("\\R");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].trim().equals(name)) {
                return lines[i + 1].trim();
            }
        }
        return "";
    }
}
