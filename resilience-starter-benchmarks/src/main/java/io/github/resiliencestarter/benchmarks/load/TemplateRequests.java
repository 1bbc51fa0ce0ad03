package io.github.resiliencestarter.benchmarks.load;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One request template sent to any service, a share of it as exact duplicates: the recipe of
 * docs/load-testing.md. {@code {key}} in the path or body becomes a key unique to the run and
 * request ({@code runId-n}), {@code {n}} the request's number; the key is also sent in the key
 * header. A duplicate re-sends an earlier request of the run byte for byte, often while the first
 * is still running. Every 2xx answer of a key is compared with that key's first 2xx answer, so a
 * duplicate that ran again with a different result, or got another body, is counted.
 */
final class TemplateRequests implements RequestMix {

    /** How many recent requests the duplicates choose from. */
    private static final int RECENT = 1024;

    private final String base;

    private final String method;

    private final String path;

    private final String body;

    private final String keyHeader;

    private final String budgetMs;

    private final String[] headers;

    private final String runId;

    private final double duplicateShare;

    private final Duration timeout;

    private final AtomicLong sequence = new AtomicLong();

    private final AtomicReferenceArray<Sent> recent = new AtomicReferenceArray<>(RECENT);

    /** The first 2xx body of each key of the run (a run of 10 000 keys with 1 KB bodies holds 10 MB). */
    private final Map<String, String> firstBodies = new ConcurrentHashMap<>();

    private final LongAdder duplicates = new LongAdder();

    private final LongAdder keysSucceeded = new LongAdder();

    private final LongAdder bodyMismatches = new LongAdder();

    private final Map<Integer, LongAdder> duplicateStatuses = new ConcurrentHashMap<>();

    /**
     * @param options {@code method} (POST), {@code path} (required), {@code body} (empty),
     *     {@code key-header} (Idempotency-Key; empty for none), {@code budget-ms} (none; sent as
     *     X-Timeout-Budget-Ms), {@code headers} ({@code Name: value} pairs separated by {@code |}),
     *     {@code duplicate-share} (0.3)
     * @param base the service's base URL, without a trailing slash
     * @param runId distinguishes this run's keys from every earlier run's
     * @param timeout the per-request timeout
     */
    TemplateRequests(Map<String, String> options, String base, String runId, Duration timeout) {
        this.base = base;
        this.method = options.getOrDefault("method", "POST");
        String given = options.get("path");
        if (given == null) {
            throw new IllegalArgumentException("--path= is required with --mix=template");
        }
        this.path = given.startsWith("/") ? given : "/" + given;
        this.body = options.getOrDefault("body", "");
        this.keyHeader = options.getOrDefault("key-header", "Idempotency-Key");
        this.budgetMs = options.getOrDefault("budget-ms", "");
        String listed = options.getOrDefault("headers", "");
        this.headers = listed.isEmpty() ? new String[0] : listed.split("\\|");
        this.duplicateShare = Double.parseDouble(options.getOrDefault("duplicate-share", "0.3"));
        if (duplicateShare < 0 || duplicateShare >= 1) {
            throw new IllegalArgumentException("--duplicate-share= must be at least 0 and below 1");
        }
        this.runId = runId;
        this.timeout = timeout;
    }

    @Override
    public Sent next() {
        long sent = sequence.get();
        if (sent > 0 && ThreadLocalRandom.current().nextDouble() < duplicateShare) {
            Sent earlier = recent.get(ThreadLocalRandom.current().nextInt((int) Math.min(sent, RECENT)));
            // a slot can be reserved but not written yet: that draw becomes a first request
            if (earlier != null) {
                duplicates.increment();
                return new Sent(earlier.request(), earlier.key(), true);
            }
        }
        long n = sequence.incrementAndGet();
        String key = runId + "-" + n;
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + fill(path, key, n))).timeout(timeout);
        if (!keyHeader.isEmpty()) {
            request.header(keyHeader, key);
        }
        if (!budgetMs.isEmpty()) {
            request.header("X-Timeout-Budget-Ms", budgetMs);
        }
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--headers= takes 'Name: value' pairs, not '" + header + "'");
            }
            request.header(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
        }
        if (body.isEmpty()) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(fill(body, key, n)));
        }
        Sent first = new Sent(request.build(), key, false);
        recent.set((int) ((n - 1) % RECENT), first);
        return first;
    }

    private static String fill(String template, String key, long n) {
        return template.replace("{key}", key).replace("{n}", Long.toString(n));
    }

    @Override
    public HttpResponse.BodyHandler<String> bodies() {
        return HttpResponse.BodyHandlers.ofString();
    }

    @Override
    public void answered(Sent sent, int status, String answer) {
        if (sent.duplicate()) {
            duplicateStatuses.computeIfAbsent(status, code -> new LongAdder()).increment();
        }
        if (status / 100 != 2) {
            return;
        }
        String first = firstBodies.putIfAbsent(sent.key(), answer);
        if (first == null) {
            keysSucceeded.increment();
        } else if (!first.equals(answer)) {
            bodyMismatches.increment();
        }
    }

    @Override
    public String report() {
        StringBuilder statuses = new StringBuilder("{");
        new TreeMap<>(duplicateStatuses).forEach((status, count) -> statuses
                .append(statuses.length() > 1 ? "," : "").append('"').append(status).append("\":").append(count.sum()));
        return "\"keysSent\":" + sequence.get() + ",\"duplicatesSent\":" + duplicates.sum()
                + ",\"keysSucceeded\":" + keysSucceeded.sum() + ",\"duplicateAnswers\":" + statuses.append('}')
                + ",\"bodyMismatches\":" + bodyMismatches.sum();
    }
}
