package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.context.ResilienceHeaders;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which response headers a replayed {@code ResponseEntity} keeps: an allow-list, global and per
 * idempotency name. Headers that belong to one session, one connection or one request are never
 * stored, whatever the lists say: a replay may reach another connection, and must never hand one
 * caller's cookie or credentials to another.
 */
public final class ReplayHeaders {

    /**
     * Headers kept by default: they describe the resource and how its bytes are to be read, not the
     * exchange (a replayed gzip body without its {@code Content-Encoding} would not decode).
     */
    public static final List<String> DEFAULT_ALLOWED = List.of("Content-Type", "Content-Encoding",
            "Content-Language", "Location", "ETag", "Last-Modified", "Cache-Control", "Vary", "Retry-After");

    /** Headers never stored: credentials, cookies, hop-by-hop, per-exchange and the starter's own. */
    public static final Set<String> NEVER_STORED = lowerCase(List.of("Set-Cookie", "Set-Cookie2", "Authorization",
            "Proxy-Authorization", "WWW-Authenticate", "Proxy-Authenticate", "Connection", "Keep-Alive",
            "Transfer-Encoding", "TE", "Trailer", "Upgrade", "Content-Length", "Date",
            RequestHeaders.REPLAYED, ResilienceHeaders.TRACE_ID, ResilienceHeaders.TRACEPARENT, "tracestate",
            ResilienceHeaders.TIMEOUT_BUDGET_MS, ResilienceHeaders.GRPC_TIMEOUT,
            ResilienceHeaders.ENVOY_EXPECTED_TIMEOUT_MS, ResilienceHeaders.RETRY_ATTEMPT,
            ResilienceHeaders.RETRY_EXHAUSTED));

    private static final ReplayHeaders DEFAULTS = new ReplayHeaders(List.of(), Map.of());

    private final Set<String> allowed;

    private final Map<String, Set<String>> allowedByName;

    /**
     * Creates the lists.
     *
     * @param extra headers kept for every name, besides {@link #DEFAULT_ALLOWED}
     * @param extraByName headers kept for one idempotency name, besides the global ones
     * @throws IllegalArgumentException when a list names a header that is never stored
     */
    public ReplayHeaders(Collection<String> extra, Map<String, ? extends Collection<String>> extraByName) {
        this.allowed = lowerCase(DEFAULT_ALLOWED);
        this.allowed.addAll(checked(extra, "resilience.idempotent.replay-headers"));
        this.allowedByName = extraByName.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey,
                entry -> {
                    Set<String> all = new TreeSet<>(allowed);
                    all.addAll(checked(entry.getValue(),
                            "resilience.idempotent.replay-headers-by-name." + entry.getKey()));
                    return all;
                }));
    }

    /**
     * The default lists.
     *
     * @return {@link #DEFAULT_ALLOWED} for every name
     */
    public static ReplayHeaders defaults() {
        return DEFAULTS;
    }

    /**
     * Whether a replay of {@code name} keeps {@code header}.
     *
     * @param name the idempotency name
     * @param header the header name, in any case
     * @return {@code true} to store and replay it
     */
    public boolean keeps(String name, String header) {
        return allowedByName.getOrDefault(name, allowed).contains(header.toLowerCase(Locale.ROOT));
    }

    private static Set<String> checked(Collection<String> headers, String property) {
        Set<String> names = lowerCase(headers);
        for (String name : names) {
            if (NEVER_STORED.contains(name)) {
                throw new IllegalArgumentException(property + " lists '" + name + "', a header that is never "
                        + "replayed (it belongs to one session, connection or request)");
            }
        }
        return names;
    }

    private static Set<String> lowerCase(Collection<String> headers) {
        Set<String> names = new TreeSet<>();
        headers.forEach(header -> names.add(header.trim().toLowerCase(Locale.ROOT)));
        return names;
    }
}
