package io.github.resiliencestarter.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** Loopback ports for the servers tests start themselves: a free one, and the wait until one listens. */
public final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /**
     * A port nothing listens on now.
     *
     * @return the port
     * @throws IOException when none can be had
     */
    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Waits until something accepts connections on a port.
     *
     * @param port the port
     * @param server what should listen, for the message
     * @param timeout how long to wait
     * @throws IOException when nothing listens in time
     * @throws InterruptedException when interrupted while waiting
     */
    public static void awaitListening(int port, String server, Duration timeout)
            throws IOException, InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < until) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IOException(server + " did not start on port " + port);
    }
}
