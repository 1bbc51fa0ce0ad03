package io.github.resiliencestarter.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.springframework.cloud.client.discovery.composite.CompositeDiscoveryClientAutoConfiguration;
import org.springframework.cloud.client.discovery.simple.SimpleDiscoveryClientAutoConfiguration;
import org.springframework.cloud.commons.util.UtilAutoConfiguration;
import org.springframework.cloud.loadbalancer.config.BlockingLoadBalancerClientAutoConfiguration;
import org.springframework.cloud.loadbalancer.config.LoadBalancerAutoConfiguration;

/**
 * Instances of an "inventory" service for the load-balancer tests: real JDK HTTP servers on
 * loopback answering {@code /stock} with a fixed status, each request shown to the test first.
 */
public final class StockInstances {

    /** Spring Cloud's simple discovery and blocking load balancer, as an application gets them. */
    public static final Class<?>[] LOAD_BALANCING = {UtilAutoConfiguration.class,
        SimpleDiscoveryClientAutoConfiguration.class, CompositeDiscoveryClientAutoConfiguration.class,
        org.springframework.cloud.client.loadbalancer.LoadBalancerAutoConfiguration.class,
        LoadBalancerAutoConfiguration.class, BlockingLoadBalancerClientAutoConfiguration.class};

    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

    /**
     * Starts an instance.
     *
     * @param status what it answers; 204 without a body, anything else with {@code instance <port>}
     * @param onRequest sees the port and the exchange of every request before the answer
     * @return the running server
     */
    public HttpServer start(int status, BiConsumer<Integer, HttpExchange> onRequest) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            int port = server.getAddress().getPort();
            server.createContext("/stock", exchange -> {
                onRequest.accept(port, exchange);
                if (status == 204) {
                    exchange.sendResponseHeaders(status, -1);
                } else {
                    byte[] body = ("instance " + port).getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(status, body.length);
                    exchange.getResponseBody().write(body);
                }
                exchange.close();
            });
            server.start();
            servers.add(server);
            return server;
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * The URI discovery lists an instance under.
     *
     * @param server the instance
     * @return {@code http://127.0.0.1:<port>}
     */
    public static String uri(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Stops every instance started here. */
    public void stopAll() {
        servers.forEach(server -> server.stop(0));
    }
}
