package io.github.resiliencestarter.benchmarks.load;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The request mix the load sends to the sample: {@code POST /order/create} with a fresh order
 * number (the sample's idempotency key, also sent as {@code Idempotency-Key}) and {@code GET
 * /order/{orderNo}} of an order this run has already created.
 *
 * <p>Every create is a first execution: a run that replayed keys would measure the replay path,
 * which is cheaper than the work it stands for and would flatter the starter. Reads only name
 * orders whose create answered 2xx, so a read never measures a 404.
 */
final class OrderRequests implements RequestMix {

    /** How many recently created order numbers the reads choose from. */
    private static final int RECENT = 1024;

    private final URI create;

    private final String base;

    private final String runId;

    private final double createShare;

    private final int products;

    private final Duration timeout;

    private final AtomicLong sequence = new AtomicLong();

    private final AtomicReferenceArray<String> recent = new AtomicReferenceArray<>(RECENT);

    private final AtomicLong created = new AtomicLong();

    /**
     * @param base the sample's base URL, without a trailing slash
     * @param runId distinguishes this run's order numbers from every earlier run's on the same database
     * @param createShare share of creates in the mix, 0 to 1
     * @param products how many products the creates spread over (ids 1 to {@code products})
     * @param timeout the per-request timeout
     */
    OrderRequests(String base, String runId, double createShare, int products, Duration timeout) {
        this.base = base;
        this.create = URI.create(base + "/order/create");
        this.runId = runId;
        this.createShare = createShare;
        this.products = products;
        this.timeout = timeout;
    }

    /**
     * The next request of the mix: the key is the order number it creates, {@code null} for a read.
     *
     * @return the request
     */
    @Override
    public Sent next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long known = created.get();
        if (known > 0 && random.nextDouble() >= createShare) {
            String orderNo = recent.get(random.nextInt((int) Math.min(known, RECENT)));
            // a slot can be reserved but not written yet: that draw becomes a create
            if (orderNo != null) {
                HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/order/" + orderNo))
                        .timeout(timeout).GET().build();
                return new Sent(request, null, false);
            }
        }
        String orderNo = runId + "-" + sequence.incrementAndGet();
        // product ids spread the stock rows, so optimistic-lock conflicts (retried by the starter,
        // a 500 without it) stay rare and both variants do the same work
        long productId = 1 + random.nextInt(products);
        String body = "{\"orderNo\":\"" + orderNo + "\",\"userId\":" + (1 + random.nextInt(1000))
                + ",\"productId\":" + productId + ",\"quantity\":1,\"amount\":9.99}";
        HttpRequest request = HttpRequest.newBuilder(create).timeout(timeout)
                .header("Content-Type", "application/json").header("Idempotency-Key", orderNo)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return new Sent(request, orderNo, false);
    }

    @Override
    public HttpResponse.BodyHandler<String> bodies() {
        return HttpResponse.BodyHandlers.replacing(null);
    }

    /** Remembers an order whose create succeeded, for later reads. */
    @Override
    public void answered(Sent sent, int status, String body) {
        if (status / 100 == 2 && sent.key() != null) {
            recent.set((int) (created.getAndIncrement() % RECENT), sent.key());
        }
    }

    @Override
    public String report() {
        return "";
    }
}
