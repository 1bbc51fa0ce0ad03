package io.github.resiliencestarter.it.httpinterface;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.resiliencestarter.context.ResilienceHeaders;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on loopback for the clients under test: {@code /stock/ok} answers, {@code
 * /stock/flaky} answers 503 while {@link #FLAKY_LEFT} is positive, {@code /stock/slow} answers
 * after 10 s. It records the propagation headers of every request. Daemon threads: it lives as
 * long as the test JVM.
 */
final class StockServer {

    /** The propagation headers of each request, in order: path, trace, budget, attempt. */
    static final List<Map<String, String>> REQUESTS = new CopyOnWriteArrayList<>();

    /** How many more requests to {@code /stock/flaky} fail. */
    static final AtomicInteger FLAKY_LEFT = new AtomicInteger();

    private static final HttpServer SERVER = start();

    private StockServer() {
    }

    static String url() {
        return "http://127.0.0.1:" + SERVER.getAddress().getPort();
    }

    private static HttpServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(Executors.newCachedThreadPool(task -> {
                Thread thread = new Thread(task, "stock-server");
                thread.setDaemon(true);
                return thread;
            }));
            server.createContext("/stock/", StockServer::answer);
            server.start();
            return server;
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        REQUESTS.add(Map.of(
                "path", exchange.getRequestURI().getPath(),
                "trace", String.valueOf(exchange.getRequestHeaders().getFirst(ResilienceHeaders.TRACE_ID)),
                "budget", String.valueOf(exchange.getRequestHeaders().getFirst(ResilienceHeaders.TIMEOUT_BUDGET_MS)),
                "attempt", String.valueOf(exchange.getRequestHeaders().getFirst(ResilienceHeaders.RETRY_ATTEMPT))));
        String item = exchange.getRequestURI().getPath().substring("/stock/".length());
        int status = 200;
        if (item.equals("flaky") && FLAKY_LEFT.getAndDecrement() > 0) {
            status = 503;
        } else if (item.equals("slow")) {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body = ("stock of " + item).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
