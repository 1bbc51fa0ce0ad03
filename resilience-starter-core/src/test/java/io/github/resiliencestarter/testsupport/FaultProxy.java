package io.github.resiliencestarter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on a loopback port between the application and a real server, which injects the
 * network faults the exactly-once contract must survive: latency, a reset of every connection,
 * a black hole (bytes swallowed, connections left open), a cut after N bytes, refused
 * connections, and faults triggered by what the client sends (a reset or a black hole at the
 * moment a given command leaves, such as the completion of a claim).
 *
 * <p>Each connection is two pumps, one per direction, on platform threads. Faults are checked
 * for every chunk read, so a trigger fires on the chunk that carries its marker, before any of it
 * reaches the server.
 */
public final class FaultProxy implements AutoCloseable {

    /** What a trigger does when the client sends its marker. */
    public enum Fault {

        /** Resets every connection (RST) without forwarding the chunk. */
        RESET,

        /** Forwards nothing more in either direction on any connection until {@link #heal()}. */
        BLACK_HOLE,

        /** Forwards the chunk, then swallows the server's replies until {@link #heal()}: the reply is lost. */
        DROP_REPLY
    }

    private final String targetHost;

    private volatile int targetPort;

    private final ServerSocket listener;

    private final Set<Link> links = ConcurrentHashMap.newKeySet();

    private final AtomicLong latencyMillis = new AtomicLong();

    private volatile boolean refusing;

    private volatile boolean blackHole;

    private volatile boolean dropReplies;

    private final AtomicLong cutAfterBytes = new AtomicLong(-1);

    private final AtomicReference<Trigger> trigger = new AtomicReference<>();

    private final AtomicInteger triggered = new AtomicInteger();

    private final AtomicInteger accepted = new AtomicInteger();

    private volatile boolean closed;

    private FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a proxy in front of a server.
     *
     * @param host the server's host
     * @param port the server's port
     * @return the running proxy
     * @throws IOException when no loopback port is free
     */
    public static FaultProxy to(String host, int port) throws IOException {
        return new FaultProxy(host, port);
    }

    /**
     * The loopback port clients connect to.
     *
     * @return the port
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Delays every chunk in both directions.
     *
     * @param latency the delay; zero for none
     * @return this proxy
     */
    public FaultProxy latency(Duration latency) {
        latencyMillis.set(latency.toMillis());
        return this;
    }

    /**
     * Sends the connections accepted from now on to another port of the same host (a failover, as
     * a client that reconnects to the same address sees it).
     *
     * @param port the new server's port
     */
    public void retarget(int port) {
        targetPort = port;
    }

    /** Closes every open connection now, as a server that goes away does (FIN, not a reset). */
    public void closeAll() {
        for (Link link : links) {
            link.close();
        }
    }

    /** Resets every open connection now. */
    public void resetAll() {
        for (Link link : links) {
            link.reset();
        }
    }

    /**
     * Refuses new connections (each is reset on accept) while on.
     *
     * @param on whether to refuse
     * @return this proxy
     */
    public FaultProxy refuse(boolean on) {
        refusing = on;
        return this;
    }

    /** Swallows every byte in both directions, connections left open, until {@link #heal()}. */
    public void blackHole() {
        blackHole = true;
    }

    /**
     * Resets every connection once {@code bytes} more bytes have been forwarded (both directions).
     *
     * @param bytes how many bytes pass first
     */
    public void cutAfter(long bytes) {
        cutAfterBytes.set(bytes);
    }

    /**
     * Arms a one-shot fault that fires when a client chunk contains {@code marker}.
     *
     * @param marker text the client sends (a command name, a statement fragment)
     * @param fault what to do
     * @param thenRefuseFor after a {@link Fault#RESET}, how long new connections are refused (the
     *     server "away"); zero for none
     */
    public void onClientSending(String marker, Fault fault, Duration thenRefuseFor) {
        trigger.set(new Trigger(marker.getBytes(StandardCharsets.UTF_8), fault, thenRefuseFor));
    }

    /**
     * How many armed triggers fired.
     *
     * @return the count
     */
    public int triggered() {
        return triggered.get();
    }

    /**
     * How many client connections were accepted (refused ones included).
     *
     * @return the count
     */
    public int accepted() {
        return accepted.get();
    }

    /**
     * Waits until an armed trigger has fired.
     *
     * @param timeout how long at most
     * @return {@code true} when it fired
     * @throws InterruptedException when interrupted
     */
    public boolean awaitTriggered(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (triggered.get() == 0) {
            if (System.nanoTime() - until > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** Ends every fault: bytes flow again, new connections are accepted; black-holed connections are reset. */
    public void heal() {
        boolean wasSwallowing = blackHole || dropReplies;
        blackHole = false;
        dropReplies = false;
        refusing = false;
        cutAfterBytes.set(-1);
        latencyMillis.set(0);
        trigger.set(null);
        if (wasSwallowing) {
            // bytes were lost: these connections can never be in step again
            resetAll();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing
        }
        resetAll();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException ex) {
                return;
            }
            accepted.incrementAndGet();
            if (refusing) {
                resetQuietly(client);
                continue;
            }
            try {
                Socket server = new Socket();
                server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Link link = new Link(client, server);
                links.add(link);
                link.start();
            } catch (IOException ex) {
                resetQuietly(client);
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private static void resetQuietly(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private static boolean contains(byte[] chunk, int length, byte[] marker) {
        outer:
        for (int i = 0; i <= length - marker.length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (chunk[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private record Trigger(byte[] marker, Fault fault, Duration thenRefuseFor) {
    }

    /** One proxied connection. */
    private final class Link {

        private final Socket client;

        private final Socket server;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            pump(client, server, true);
            pump(server, client, false);
        }

        void reset() {
            resetQuietly(client);
            resetQuietly(server);
            links.remove(this);
        }

        void close() {
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
        }

        private void pump(Socket from, Socket to, boolean fromClient) {
            Thread thread = new Thread(() -> {
                byte[] buffer = new byte[16 * 1024];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int read;
                    while ((read = in.read(buffer)) >= 0) {
                        if (!forward(buffer, read, fromClient)) {
                            continue;
                        }
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                } catch (SocketException closedOrReset) {
                    // the other side or a fault ended the connection
                } catch (IOException ex) {
                    // likewise
                } finally {
                    reset();
                }
            }, "fault-proxy-" + (fromClient ? "up-" : "down-") + port());
            thread.setDaemon(true);
            thread.start();
        }

        /** Applies the faults to one chunk; {@code false} when it must not be forwarded. */
        private boolean forward(byte[] chunk, int length, boolean fromClient) throws IOException {
            Trigger armed = trigger.get();
            if (fromClient && armed != null && contains(chunk, length, armed.marker())
                    && trigger.compareAndSet(armed, null)) {
                triggered.incrementAndGet();
                switch (armed.fault()) {
                    case RESET -> {
                        if (!armed.thenRefuseFor().isZero()) {
                            refuseFor(armed.thenRefuseFor());
                        }
                        resetAll();
                        throw new SocketException("reset by the fault proxy");
                    }
                    case BLACK_HOLE -> {
                        blackHole = true;
                        return false;
                    }
                    case DROP_REPLY -> dropReplies = true;
                }
            }
            if (blackHole || (!fromClient && dropReplies)) {
                return false;
            }
            long latency = latencyMillis.get();
            if (latency > 0) {
                try {
                    Thread.sleep(latency);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", ex);
                }
            }
            long cut = cutAfterBytes.get();
            if (cut >= 0) {
                if (cutAfterBytes.addAndGet(-length) < 0) {
                    cutAfterBytes.set(-1);
                    resetAll();
                    throw new SocketException("cut by the fault proxy");
                }
            }
            return true;
        }

        private void refuseFor(Duration period) {
            refusing = true;
            Thread healer = new Thread(() -> {
                try {
                    TimeUnit.MILLISECONDS.sleep(period.toMillis());
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
                refusing = false;
            }, "fault-proxy-refusal-" + port());
            healer.setDaemon(true);
            healer.start();
        }
    }
}
