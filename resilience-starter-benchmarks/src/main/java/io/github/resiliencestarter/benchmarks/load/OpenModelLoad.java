package io.github.resiliencestarter.benchmarks.load;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * An open-model load generator: the sample's order mix ({@code --mix=orders}, the default), or one
 * request template with duplicates against any service ({@code --mix=template}, {@link TemplateRequests}).
 *
 * <p>Phase 1 (open model): in the measured window request {@code i} is due at {@code start + i /
 * rate}, whether or not earlier requests have answered, and its latency is measured from that
 * intended start. A server that stalls therefore shows the whole queueing delay in the histogram
 * instead of silently slowing the sender down (coordinated omission). The {@code warmup} seconds
 * before the window are sent but not recorded; during them the rate climbs linearly from a tenth
 * of {@code rate} to the full rate, because a cold JVM sent the full rate at once can queue more
 * than it ever drains (the sample without the starter, whose self-call has no timeout, then holds
 * every server thread). The time from the actual send is recorded separately as service time, to
 * show how much the two differ.
 *
 * <p>Phase 2 (saturation, closed loop): {@code concurrency} requests are kept in flight, each
 * answer immediately sending the next, for {@code saturation} seconds; the completed requests per
 * second after a short ramp are the throughput the server sustains. A fixed-rate phase cannot
 * compare throughput, since both variants answer the rate they are sent; this phase can.
 *
 * <p>Options, as {@code --name=value}: {@code url} (required), {@code rate} (requests/s, 100),
 * {@code warmup} (s, 10), {@code duration} (s, 20), {@code saturation} (s, 10; 0 skips it),
 * {@code concurrency} (32), {@code create-share} (0.5), {@code products} (3), {@code timeout} (s,
 * 10), {@code max-in-flight} (5000), {@code mix} (orders), the template's options (see
 * {@link TemplateRequests}), {@code label}, {@code out} (JSON file; a {@code .hgrm}
 * percentile distribution is written beside it), {@code counters-url} (a URL of the server whose
 * JSON answer is read at the start and end of the measured window and of the counted saturation
 * window, and written into the result as it came: the hand-written comparison reads CPU and
 * allocation counters there). One JSON line is also printed to standard output.
 */
public final class OpenModelLoad {

    /** Latencies are recorded in microseconds, up to this bound (longer ones are clamped). */
    private static final long MAX_MICROS = TimeUnit.SECONDS.toMicros(120);

    /** Part of the saturation phase not counted, while the in-flight requests build up. */
    private static final double SATURATION_RAMP_SHARE = 0.2;

    private final Map<String, String> options;

    private final HttpClient client;

    private final ExecutorService completions;

    private final RequestMix requests;

    /** The server's counters per window ({@code counters-url}), as JSON objects. */
    private final Map<String, String> windowCounters = new LinkedHashMap<>();

    private OpenModelLoad(Map<String, String> options) {
        this.options = options;
        // a few threads for completions: the client's default is an unbounded pool, which on 2 cores
        // would let the generator take CPU from the server it measures
        this.completions = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "load-completion");
            thread.setDaemon(true);
            return thread;
        });
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(completions)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String base = stripSlash(required("url"));
        String runId = option("run-id", "L" + Long.toString(System.currentTimeMillis(), 36));
        Duration timeout = Duration.ofSeconds(Long.parseLong(option("timeout", "10")));
        this.requests = switch (option("mix", "orders")) {
            case "orders" -> new OrderRequests(base, runId, Double.parseDouble(option("create-share", "0.5")),
                    Integer.parseInt(option("products", "3")), timeout);
            case "template" -> new TemplateRequests(options, base, runId, timeout);
            default -> throw new IllegalArgumentException("--mix= is orders (the sample's) or template");
        };
    }

    /**
     * Runs the load and prints the result.
     *
     * @param args options as {@code --name=value}
     * @throws Exception when the output cannot be written or the run is interrupted
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("options are --name=value, not " + arg);
            }
            options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        OpenModelLoad load = new OpenModelLoad(options);
        String json = load.run();
        System.out.println(json);
        String out = options.get("out");
        if (out != null) {
            Files.writeString(Path.of(out), json + "\n", StandardCharsets.UTF_8);
        }
        load.completions.shutdownNow();
    }

    private String run() throws IOException, InterruptedException {
        double rate = Double.parseDouble(option("rate", "100"));
        long warmup = Long.parseLong(option("warmup", "10"));
        long duration = Long.parseLong(option("duration", "20"));
        long saturation = Long.parseLong(option("saturation", "10"));
        int concurrency = Integer.parseInt(option("concurrency", "32"));

        OpenResult open = openPhase(rate, warmup, duration, Integer.parseInt(option("max-in-flight", "5000")));
        ClosedResult closed = saturation > 0 ? closedPhase(concurrency, saturation) : null;
        if (open.countersStart != null && options.containsKey("counters-url")) {
            windowCounters.put("open", "{\"start\":" + open.countersStart.join() + ",\"end\":" + open.countersEnd + "}");
        }
        if (closed != null && closed.countersStart != null) {
            windowCounters.put("saturation", "{\"start\":" + closed.countersStart + ",\"end\":" + closed.countersEnd
                    + "}");
        }

        String out = options.get("out");
        if (out != null) {
            String hgrm = out.endsWith(".json") ? out.substring(0, out.length() - 5) + ".hgrm" : out + ".hgrm";
            try (PrintStream stream = new PrintStream(Files.newOutputStream(Path.of(hgrm)), true,
                    StandardCharsets.UTF_8)) {
                // microseconds recorded, milliseconds printed
                open.latency.outputPercentileDistribution(stream, 1000.0);
            }
        }
        printSummary(rate, open, closed);
        return json(rate, warmup, duration, open, closed, concurrency, saturation);
    }

    /** The fixed-rate phase: warm-up and measurement on one uninterrupted schedule. */
    private OpenResult openPhase(double rate, long warmupSeconds, long durationSeconds, int maxInFlight)
            throws InterruptedException {
        OpenResult result = new OpenResult();
        double periodNanos = 1e9 / rate;
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        long measureStart = t0 + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long measureEnd = measureStart + TimeUnit.SECONDS.toNanos(durationSeconds);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicLong lastMeasuredCompletion = new AtomicLong(measureStart);
        double warmupNanos = measureStart - t0;
        double rampStart = t0;
        long measuredIndex = 0;
        while (true) {
            long intended;
            if (rampStart < measureStart) {
                // warm-up: the rate climbs from a tenth to the full rate, so a cold JVM is not buried
                // under a queue it cannot drain before the JIT has compiled it
                intended = Math.round(rampStart);
                double share = 0.1 + 0.9 * (rampStart - t0) / warmupNanos;
                rampStart += periodNanos / share;
            } else {
                // measured: exactly on the fixed-rate schedule from the window's start
                intended = measureStart + Math.round(measuredIndex++ * periodNanos);
            }
            if (intended >= measureEnd) {
                break;
            }
            parkUntil(intended);
            if (intended >= measureStart && result.startEpochMs == 0) {
                // the wall-clock window, to cut the server's JFR recording to the measured part
                result.startEpochMs = System.currentTimeMillis();
                result.loadAverageStart = loadAverage();
                // read without holding up the schedule
                result.countersStart = countersAsync();
            }
            boolean measured = intended >= measureStart;
            if (inFlight.get() >= maxInFlight) {
                // never skip silently: an unsent request is an error of the run
                if (measured) {
                    result.count("not-sent-in-flight-cap");
                    result.sent.increment();
                }
                continue;
            }
            RequestMix.Sent next = requests.next();
            inFlight.incrementAndGet();
            if (measured) {
                result.sent.increment();
            }
            long sentAt = System.nanoTime();
            client.sendAsync(next.request(), requests.bodies()).whenComplete((response, error) -> {
                long now = System.nanoTime();
                boolean ok = error == null && response.statusCode() / 100 == 2;
                if (error == null) {
                    requests.answered(next, response.statusCode(), response.body());
                }
                if (measured) {
                    if (ok) {
                        result.latency.recordValue(micros(now - intended));
                        result.service.recordValue(micros(now - sentAt));
                        result.ok.increment();
                    } else {
                        result.count(error != null ? kind(error) : "http-" + response.statusCode());
                        if (error == null) {
                            // how fast a refusal comes (a spent budget should be answered within it)
                            result.refusals.recordValue(micros(now - intended));
                        }
                    }
                    lastMeasuredCompletion.accumulateAndGet(now, Math::max);
                }
                inFlight.decrementAndGet();
            });
        }
        result.endEpochMs = System.currentTimeMillis();
        result.loadAverageEnd = loadAverage();
        long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(option("timeout", "10")) + 1);
        while (inFlight.get() > 0 && System.nanoTime() < drainUntil) {
            Thread.sleep(5);
        }
        result.unfinished = inFlight.get();
        result.countersEnd = counters();
        // achieved rate: answered requests over the time until the last of them answered, so a server
        // that falls behind shows a rate below the offered one
        result.seconds = Math.max(durationSeconds, (lastMeasuredCompletion.get() - measureStart) / 1e9);
        return result;
    }

    /** The closed-loop saturation phase. */
    private ClosedResult closedPhase(int concurrency, long seconds) throws InterruptedException {
        ClosedResult result = new ClosedResult();
        long start = System.nanoTime();
        long countFrom = start + Math.round(seconds * 1e9 * SATURATION_RAMP_SHARE);
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        AtomicInteger running = new AtomicInteger(concurrency);
        for (int i = 0; i < concurrency; i++) {
            sendClosed(result, countFrom, end, running);
        }
        if (options.containsKey("counters-url")) {
            parkUntil(countFrom);
            result.countersStart = counters();
            parkUntil(end);
            result.countersEnd = counters();
        }
        long drainUntil = end + TimeUnit.SECONDS.toNanos(Long.parseLong(option("timeout", "10")) + 1);
        while (running.get() > 0 && System.nanoTime() < drainUntil) {
            Thread.sleep(5);
        }
        result.seconds = (end - countFrom) / 1e9;
        return result;
    }

    /** The server's counters ({@code counters-url}); {@code null} as JSON without one. */
    private CompletableFuture<String> countersAsync() {
        String url = options.get("counters-url");
        if (url == null) {
            return CompletableFuture.completedFuture("null");
        }
        return client.sendAsync(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).thenApply(HttpResponse::body);
    }

    private String counters() {
        return countersAsync().join();
    }

    private void sendClosed(ClosedResult result, long countFrom, long end, AtomicInteger running) {
        RequestMix.Sent next = requests.next();
        long sentAt = System.nanoTime();
        // asynchronous continuation: a request that fails at once (server gone) must not recurse on one stack
        client.sendAsync(next.request(), requests.bodies()).whenCompleteAsync((response, error) -> {
            long now = System.nanoTime();
            boolean ok = error == null && response.statusCode() / 100 == 2;
            if (error == null) {
                requests.answered(next, response.statusCode(), response.body());
            }
            // only answers inside the counted window count, so the throughput is completions per second
            if (now >= countFrom && now < end) {
                if (ok) {
                    result.ok.increment();
                    result.latency.recordValue(micros(now - sentAt));
                } else {
                    result.count(error != null ? kind(error) : "http-" + response.statusCode());
                }
            }
            if (now < end) {
                sendClosed(result, countFrom, end, running);
            } else {
                running.decrementAndGet();
            }
        }, completions);
    }

    private void printSummary(double rate, OpenResult open, ClosedResult closed) {
        PrintStream err = System.err;
        err.printf(Locale.ROOT, "[%s] open model at %.0f req/s: %d sent, %d ok, %d errors %s, %.1f req/s achieved%n",
                option("label", "load"), rate, open.sent.sum(), open.ok.sum(), open.errorCount(), open.errors,
                open.throughput());
        err.printf(Locale.ROOT, "[%s]   latency from intended start (ms): p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f"
                + "  max %.2f; service time p99 %.2f%n", option("label", "load"), ms(open.latency, 50),
                ms(open.latency, 90), ms(open.latency, 99), ms(open.latency, 99.9), open.latency.getMaxValue() / 1000.0,
                ms(open.service, 99));
        if (open.refusals.getTotalCount() > 0) {
            err.printf(Locale.ROOT, "[%s]   non-2xx answers from intended start (ms): p50 %.2f  p99 %.2f  max %.2f%n",
                    option("label", "load"), ms(open.refusals, 50), ms(open.refusals, 99),
                    open.refusals.getMaxValue() / 1000.0);
        }
        String mix = requests.report();
        if (!mix.isEmpty()) {
            err.printf(Locale.ROOT, "[%s] requests: %s%n", option("label", "load"), mix);
        }
        if (closed != null) {
            err.printf(Locale.ROOT, "[%s] saturation (closed loop): %.1f req/s, %d errors %s, p50 %.2f ms, p99 %.2f ms%n",
                    option("label", "load"), closed.throughput(), closed.errorCount(), closed.errors,
                    ms(closed.latency, 50),
                    ms(closed.latency, 99));
        }
    }

    private String json(double rate, long warmup, long duration, OpenResult open, ClosedResult closed,
            int concurrency, long saturation) {
        StringBuilder json = new StringBuilder(512).append('{');
        field(json, "label", quote(option("label", "load"))).append(',');
        field(json, "url", quote(required("url"))).append(',');
        field(json, "rate", num(rate)).append(',');
        field(json, "warmupSeconds", Long.toString(warmup)).append(',');
        field(json, "durationSeconds", Long.toString(duration)).append(',');
        field(json, "createShare", option("create-share", "0.5")).append(',');
        field(json, "measuredStartEpochMs", Long.toString(open.startEpochMs)).append(',');
        field(json, "measuredEndEpochMs", Long.toString(open.endEpochMs)).append(',');
        field(json, "sent", Long.toString(open.sent.sum())).append(',');
        field(json, "ok", Long.toString(open.ok.sum())).append(',');
        field(json, "errors", Long.toString(open.errorCount())).append(',');
        field(json, "errorsByKind", kinds(open.errors)).append(',');
        // the machine's other load, since the server shares the cores with everything else running there
        field(json, "loadAverage", "{\"start\":" + num(open.loadAverageStart) + ",\"end\":"
                + num(open.loadAverageEnd) + "}").append(',');
        field(json, "unfinished", Integer.toString(open.unfinished)).append(',');
        field(json, "throughput", num(open.throughput())).append(',');
        field(json, "latencyMs", percentiles(open.latency)).append(',');
        field(json, "serviceTimeMs", percentiles(open.service));
        json.append(',');
        field(json, "non2xxLatencyMs", percentiles(open.refusals));
        String mix = requests.report();
        if (!mix.isEmpty()) {
            json.append(",\"mix\":{").append(mix).append('}');
        }
        if (closed != null) {
            json.append(",\"saturation\":{");
            field(json, "concurrency", Integer.toString(concurrency)).append(',');
            field(json, "seconds", Long.toString(saturation)).append(',');
            field(json, "countedSeconds", num(closed.seconds)).append(',');
            field(json, "ok", Long.toString(closed.ok.sum())).append(',');
            field(json, "errors", Long.toString(closed.errorCount())).append(',');
            field(json, "errorsByKind", kinds(closed.errors)).append(',');
            field(json, "throughput", num(closed.throughput())).append(',');
            field(json, "latencyMs", percentiles(closed.latency)).append('}');
        }
        if (!windowCounters.isEmpty()) {
            json.append(",\"counters\":{");
            windowCounters.forEach((window, counters) -> field(json, window, counters).append(','));
            json.setLength(json.length() - 1);
            json.append('}');
        }
        return json.append('}').toString();
    }

    private static String kinds(Map<String, LongAdder> errors) {
        StringBuilder kinds = new StringBuilder("{");
        new TreeMap<>(errors).forEach((kind, count) -> {
            if (kinds.length() > 1) {
                kinds.append(',');
            }
            field(kinds, kind, Long.toString(count.sum()));
        });
        return kinds.append('}').toString();
    }

    private static String percentiles(Histogram histogram) {
        return "{\"p50\":" + num(ms(histogram, 50)) + ",\"p90\":" + num(ms(histogram, 90)) + ",\"p99\":"
                + num(ms(histogram, 99)) + ",\"p999\":" + num(ms(histogram, 99.9)) + ",\"max\":"
                + num(histogram.getMaxValue() / 1000.0) + ",\"mean\":" + num(histogram.getMean() / 1000.0)
                + ",\"count\":" + histogram.getTotalCount() + "}";
    }

    private static StringBuilder field(StringBuilder json, String name, String value) {
        return json.append(quote(name)).append(':').append(value);
    }

    private static String quote(String value) {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static double ms(Histogram histogram, double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static String kind(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getClass().getSimpleName();
    }

    private static long micros(long nanos) {
        return Math.min(MAX_MICROS, Math.max(1, nanos / 1000));
    }

    private static void parkUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private String required(String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + "= is required");
        }
        return value;
    }

    private String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    private static Histogram histogram() {
        return new ConcurrentHistogram(1, MAX_MICROS, 3);
    }

    /** What a phase counted: answers by kind and the latency of the successful ones. */
    private static class PhaseResult {

        final Histogram latency = histogram();

        final LongAdder ok = new LongAdder();

        final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

        double seconds;

        void count(String kind) {
            errors.computeIfAbsent(kind, key -> new LongAdder()).increment();
        }

        long errorCount() {
            return errors.values().stream().mapToLong(LongAdder::sum).sum();
        }

        double throughput() {
            return ok.sum() / seconds;
        }
    }

    /** What the open-model phase measured. */
    private static final class OpenResult extends PhaseResult {

        final Histogram service = histogram();

        /** Latency of the non-2xx answers, from the intended start. */
        final Histogram refusals = histogram();

        final LongAdder sent = new LongAdder();

        volatile long startEpochMs;

        volatile long endEpochMs;

        double loadAverageStart;

        double loadAverageEnd;

        int unfinished;

        /** The server's counters as the measured window began, when asked for. */
        @Nullable CompletableFuture<String> countersStart;

        @Nullable String countersEnd;
    }

    /** What the saturation phase measured. */
    private static final class ClosedResult extends PhaseResult {

        /** The server's counters as the counted window began and ended, when asked for. */
        @Nullable String countersStart;

        @Nullable String countersEnd;
    }
}
