package io.github.resiliencestarter.testsupport.contract;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.testsupport.Eventually;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP entry point as a client drives it: a {@code POST} with the payload as its body, the key
 * in {@code Idempotency-Key}, the caller in HTTP Basic credentials ({@value #PASSWORD} for every
 * caller). The answer's {@code Content-Type} and {@code Location} are the headers a replay must
 * carry.
 */
public final class HttpEntryPoint implements EntryPoint {

    /** Every caller's password in the applications under test. */
    public static final String PASSWORD = "contract";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;

    private final URI target;

    private final Set<EntryPointCapability> capabilities;

    /**
     * Creates the driver.
     *
     * @param name the entry point's name
     * @param target where the keyed requests go
     * @param capabilities what the entry point has
     */
    public HttpEntryPoint(String name, URI target, Set<EntryPointCapability> capabilities) {
        this.name = name;
        this.target = target;
        this.capabilities = Set.copyOf(capabilities);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Set<EntryPointCapability> capabilities() {
        return capabilities;
    }

    @Override
    public ContractAnswer send(String caller, String key, String payload, @Nullable Duration budget) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(target);
        if (budget != null) {
            builder.header(ResilienceHeaders.TIMEOUT_BUDGET_MS, Long.toString(budget.toMillis()));
        }
        HttpRequest request = builder.timeout(Eventually.GENEROUSLY.plusSeconds(10))
                .header("Content-Type", "text/plain").header("Idempotency-Key", key)
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((caller + ":" + PASSWORD)
                        .getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(payload)).build();
        try {
            HttpResponse<byte[]> response = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
            Map<String, String> kept = new TreeMap<>();
            for (String header : new String[] {"content-type", "location"}) {
                response.headers().firstValue(header).ifPresent(value -> kept.put(header, value));
            }
            boolean replayed = response.headers().firstValue("Idempotent-Replayed").map(value -> value.toLowerCase(
                    Locale.ROOT).equals("true")).orElse(false);
            return new ContractAnswer(response.statusCode(), response.body(), kept, replayed);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public EntryPoint in(ContractProcess process) {
        URI there = URI.create(target.getScheme() + "://" + target.getHost() + ":" + process.port(name)
                + target.getRawPath());
        return new HttpEntryPoint(name, there, capabilities);
    }

    @Override
    public String toString() {
        return name;
    }
}
