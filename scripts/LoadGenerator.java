import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load behind scripts/load.sh: create-order requests spread over the given instances, a share
 * of them duplicates, paced over a minimum duration. A client that gets anything but 200 retries
 * the same order number (same key) up to 20 times, as a well-behaved client would. Prints figures
 * and checks: no order lost, every duplicate answered with the first body, stock moved once per
 * order. Exit code 1 when a check fails. Run with: java scripts/LoadGenerator.java ...
 */
public class LoadGenerator {

    public static void main(String[] args) throws Exception {
        List<String> bases = Arrays.asList(args[0].split(","));
        int total = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        double duplicateShare = Double.parseDouble(args[3]);
        long minSeconds = Long.parseLong(args[4]);
        String run = args.length > 5 ? args[5] : Long.toHexString(System.nanoTime());

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        int distinct = (int) Math.round(total * (1 - duplicateShare));
        Random random = new Random(7);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < distinct; i++) {
            orders.add("LOAD-" + run + "-" + i);
        }
        for (int i = distinct; i < total; i++) {
            orders.add(orders.get(random.nextInt(distinct)));
        }
        Collections.shuffle(orders, random);

        int stockBefore = stock(http, bases.get(0));
        long[] latencies = new long[total];
        Map<String, List<String>> bodies = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        AtomicInteger lost = new AtomicInteger();
        AtomicLong clientRetries = new AtomicLong();
        long pacingNanos = TimeUnit.SECONDS.toNanos(minSeconds) / total;
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int i = 0; i < total; i++) {
            int index = i;
            pool.submit(() -> {
                long due = start + index * pacingNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                String orderNo = orders.get(index);
                String body = "{\"orderNo\":\"" + orderNo + "\",\"userId\":7,\"productId\":1,\"quantity\":1,\"amount\":1}";
                long began = System.nanoTime();
                for (int attempt = 1; attempt <= 20; attempt++) {
                    String base = bases.get((index + attempt) % bases.size());
                    HttpResponse<String> response;
                    try {
                        response = http.send(HttpRequest.newBuilder(URI.create(base + "/order/create"))
                                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.ofString());
                    } catch (Exception ex) {
                        statuses.computeIfAbsent(-1, k -> new AtomicInteger()).incrementAndGet();
                        clientRetries.incrementAndGet();
                        Thread.sleep(50L * attempt);
                        continue;
                    }
                    statuses.computeIfAbsent(response.statusCode(), k -> new AtomicInteger()).incrementAndGet();
                    if (response.statusCode() == 200) {
                        latencies[index] = System.nanoTime() - began;
                        bodies.computeIfAbsent(orderNo, k -> Collections.synchronizedList(new ArrayList<>()))
                                .add(response.body());
                        return null;
                    }
                    clientRetries.incrementAndGet();
                    Thread.sleep(50L * attempt);
                }
                lost.incrementAndGet();
                return null;
            });
        }
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - start) / 1e9;
        int stockAfter = stock(http, bases.get(0));

        long[] done = Arrays.stream(latencies).filter(value -> value > 0).sorted().toArray();
        long inconsistent = bodies.values().stream().filter(list -> list.stream().distinct().count() > 1).count();
        System.out.printf("requests %d (%d distinct orders, %.0f%% duplicates), %d client threads, %d instances%n",
                total, distinct, duplicateShare * 100, threads, bases.size());
        System.out.printf("duration %.1f s, throughput %.1f requests/s%n", seconds, total / seconds);
        System.out.printf("latency of successful requests: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                percentile(done, 0.50), percentile(done, 0.99), percentile(done, 1.0));
        System.out.println("responses by status (all tries): " + statuses);
        System.out.println("client retries with the same key: " + clientRetries.get());
        System.out.println("lost (no 200 after 20 tries): " + lost.get());
        System.out.println("orders answered: " + bodies.size() + " of " + distinct);
        System.out.println("duplicates answered with a different body: " + inconsistent);
        System.out.println("stock moved: " + (stockBefore - stockAfter) + " (expected " + distinct + ")");
        boolean ok = lost.get() == 0 && inconsistent == 0 && bodies.size() == distinct
                && stockBefore - stockAfter == distinct;
        System.out.println(ok ? "CHECKS PASSED" : "CHECKS FAILED");
        System.exit(ok ? 0 : 1);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }

    private static int stock(HttpClient http, String base) throws Exception {
        String body = http.send(HttpRequest.newBuilder(URI.create(base + "/inventory/stock/1")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String available = body.replaceAll(".*\"available\":(\\d+).*", "$1");
        return Integer.parseInt(available);
    }
}
