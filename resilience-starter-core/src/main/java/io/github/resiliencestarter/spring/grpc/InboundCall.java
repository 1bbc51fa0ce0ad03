package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.grpc.Context;
import io.grpc.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The inbound gRPC call a handler runs for, as {@link TraceContextServerInterceptor} makes it
 * current in the call's gRPC {@link Context}: its metadata, read as request headers (the
 * {@code idempotency-key} entry for {@code @Idempotent}), and whether its answer is a replay, which
 * the answer's headers then say ({@code idempotent-replayed: true}).
 */
public final class InboundCall {

    private static final Context.Key<InboundCall> CURRENT = Context.key("resilience-starter-inbound-call");

    private static final Metadata.Key<String> REPLAYED = Metadata.Key.of(
            ResilienceHeaders.IDEMPOTENT_REPLAYED.toLowerCase(Locale.ROOT), Metadata.ASCII_STRING_MARSHALLER);

    private final Metadata headers;

    private volatile boolean replayed;

    InboundCall(Metadata headers) {
        this.headers = headers;
    }

    /**
     * The call the current thread handles.
     *
     * @return the call, or {@code null} outside a gRPC handler the interceptor runs
     */
    public static @Nullable InboundCall current() {
        return CURRENT.get();
    }

    /**
     * Every value of a metadata entry, as the field lines of a request header.
     *
     * @param name the header name, any case
     * @return its values in order, empty when absent (binary entries are never read)
     */
    public List<String> headers(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
            return List.of();
        }
        Iterable<String> values = headers.getAll(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER));
        List<String> fields = new ArrayList<>();
        if (values != null) {
            values.forEach(fields::add);
        }
        return fields;
    }

    /** Marks the answer as a replay of a stored one; any thread, before the answer is sent. */
    public void markReplayed() {
        replayed = true;
    }

    /**
     * Adds the replay marker to the answer's headers when the answer is a replay.
     *
     * @param answerHeaders the headers about to be sent
     */
    void stampReplayed(Metadata answerHeaders) {
        if (replayed) {
            answerHeaders.put(REPLAYED, "true");
        }
    }

    /**
     * The gRPC context in which this call is current.
     *
     * @param parent the call's own context (its deadline and cancellation)
     * @return a child of it
     */
    Context attachTo(Context parent) {
        return parent.withValue(CURRENT, this);
    }
}
