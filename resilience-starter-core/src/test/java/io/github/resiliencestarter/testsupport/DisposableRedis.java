package io.github.resiliencestarter.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A redis-server process of a test's own, on a free loopback port, that the test may stop and
 * start again (outage tests). Needs {@code redis-server} on the PATH, which {@code scripts/test.sh}
 * installs; fails loudly otherwise.
 */
public final class DisposableRedis implements AutoCloseable {

    private final int port;

    private final Path dir;

    private final boolean durable;

    private Process process;

    private LettuceConnectionFactory clientFactory;

    private DisposableRedis(int port, Path dir, boolean durable) {
        this.port = port;
        this.dir = dir;
        this.durable = durable;
    }

    /**
     * Starts a new server.
     *
     * @return the running server
     * @throws IOException when it cannot be started
     */
    public static DisposableRedis start() throws IOException {
        return start(false);
    }

    /**
     * Starts a new server that keeps every write it acknowledged through a kill: an append-only
     * file synced before each reply ({@code appendfsync always}), read again when it restarts.
     *
     * @return the running server
     * @throws IOException when it cannot be started
     */
    public static DisposableRedis startDurable() throws IOException {
        return start(true);
    }

    private static DisposableRedis start(boolean durable) throws IOException {
        DisposableRedis redis = new DisposableRedis(LoopbackPorts.free(), Files.createTempDirectory("disposable-redis"),
                durable);
        redis.resume();
        return redis;
    }

    /** @return the port */
    public int port() {
        return port;
    }

    /**
     * A template on this server, created once and closed with it. Its short command timeout makes
     * an outage show within half a second instead of Lettuce's default minute.
     *
     * @return the template
     */
    public synchronized StringRedisTemplate template() {
        if (clientFactory == null) {
            clientFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
                    LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(500)).build());
            clientFactory.afterPropertiesSet();
            clientFactory.start();
        }
        StringRedisTemplate template = new StringRedisTemplate(clientFactory);
        template.afterPropertiesSet();
        return template;
    }

    /**
     * Starts the server again on the same port.
     *
     * @throws IOException when it cannot be started
     */
    public void resume() throws IOException {
        String binary = findBinary();
        process = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", durable ? "yes" : "no", "--appendfsync", "always", "--dir", dir.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        try {
            LoopbackPorts.awaitListening(port, "redis-server", Duration.ofSeconds(10));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while redis-server started", ex);
        }
    }

    /**
     * Stops the server (SIGKILL: an outage, not a shutdown).
     *
     * @throws InterruptedException when interrupted while waiting for it to end
     */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public synchronized void close() throws InterruptedException {
        if (clientFactory != null) {
            clientFactory.destroy();
            clientFactory = null;
        }
        kill();
    }

    private static String findBinary() throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(dir, "redis-server");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        for (String fallback : new String[] {"/usr/bin/redis-server", "/usr/local/bin/redis-server"}) {
            if (new File(fallback).canExecute()) {
                return fallback;
            }
        }
        throw new IOException("redis-server is not installed; scripts/test.sh installs it. Tests do not skip.");
    }
}
