package io.github.resiliencestarter.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeoutKindsTest {

    @Test
    void T4_connectReadAndDeadlineTimeoutsAreDistinctTypes() {
        assertThat(TimeoutKinds.of(new ConnectTimeoutException("connect", null))).isEqualTo(TimeoutKind.CONNECT);
        assertThat(TimeoutKinds.of(new ReadTimeoutException("read", null))).isEqualTo(TimeoutKind.READ);
        assertThat(TimeoutKinds.of(DeadlineExceededException.budgetSpent("op"))).isEqualTo(TimeoutKind.DEADLINE);
        assertThat(TimeoutKinds.of(new DeadlineExceededException("op",
                DeadlineExceededException.Reason.TIMED_OUT, Duration.ofMillis(5), null)))
                .isEqualTo(TimeoutKind.DEADLINE);
    }

    @Test
    void T4_jdkTransportTimeoutsAreClassifiedThroughTheCauseChain() {
        assertThat(TimeoutKinds.of(new HttpConnectTimeoutException("HTTP connect timed out")))
                .isEqualTo(TimeoutKind.CONNECT);
        assertThat(TimeoutKinds.of(new HttpTimeoutException("request timed out"))).isEqualTo(TimeoutKind.READ);
        assertThat(TimeoutKinds.of(new SocketTimeoutException("Connect timed out"))).isEqualTo(TimeoutKind.CONNECT);
        assertThat(TimeoutKinds.of(new UncheckedIOException(new SocketTimeoutException("Read timed out"))))
                .isEqualTo(TimeoutKind.READ);
        assertThat(TimeoutKinds.of(new IOException("broken pipe"))).isNull();
        assertThat(TimeoutKinds.of(null)).isNull();
    }

    @Test
    void T4_aRealSocketReadTimeoutIsClassifiedAsRead() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
                Socket client = new Socket()) {
            client.connect(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()), 1_000);
            client.setSoTimeout(100);
            try (Socket accepted = server.accept(); InputStream in = client.getInputStream()) {
                in.read();
            } catch (SocketTimeoutException ex) {
                assertThat(TimeoutKinds.of(ex)).isEqualTo(TimeoutKind.READ);
                return;
            }
        }
        throw new AssertionError("the read should have timed out");
    }
}
