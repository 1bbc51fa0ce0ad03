package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.grpc.Metadata;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The metadata keys the gRPC interceptors read and write: the HTTP header names, lower-cased as gRPC wants. */
final class GrpcMetadata {

    /** The trace id. */
    static final Metadata.Key<String> TRACE_ID = key(ResilienceHeaders.TRACE_ID);

    /** The attempt number of a retried call. */
    static final Metadata.Key<String> RETRY_ATTEMPT = key(ResilienceHeaders.RETRY_ATTEMPT);

    private GrpcMetadata() {
    }

    /**
     * The metadata entry of a header name.
     *
     * @param headers the call's metadata
     * @param name a header name, any case
     * @return its value, or {@code null}
     */
    static @Nullable String get(Metadata headers, String name) {
        return headers.get(key(name));
    }

    private static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name.toLowerCase(Locale.ROOT), Metadata.ASCII_STRING_MARSHALLER);
    }
}
