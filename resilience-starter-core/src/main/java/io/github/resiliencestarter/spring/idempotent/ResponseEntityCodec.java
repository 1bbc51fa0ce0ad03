package io.github.resiliencestarter.spring.idempotent;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;

/**
 * Replays a {@code ResponseEntity<T>} with full fidelity: status, the allow-listed headers (see
 * {@link ReplayHeaders}; never cookies or credentials) and a body decoded with {@code T}. Other
 * types go to the delegate codec. The {@code Idempotent-Replayed} marker is added by the caller,
 * once, not stored here.
 */
public class ResponseEntityCodec implements ResponseCodec {

    private final ResponseCodec delegate;

    private final ReplayHeaders replayHeaders;

    /**
     * Creates the codec with the default header allow-list.
     *
     * @param delegate the codec for bodies and other results
     */
    public ResponseEntityCodec(ResponseCodec delegate) {
        this(delegate, ReplayHeaders.defaults());
    }

    /**
     * Creates the codec.
     *
     * @param delegate the codec for bodies and other results
     * @param replayHeaders which response headers are stored and replayed
     */
    public ResponseEntityCodec(ResponseCodec delegate, ReplayHeaders replayHeaders) {
        this.delegate = delegate;
        this.replayHeaders = replayHeaders;
    }

    @Override
    public boolean canRoundTrip(Type type) {
        return delegate.canRoundTrip(isResponseEntity(type) ? bodyType(type) : type);
    }

    @Override
    public String encode(@Nullable Object value, IdempotentCall call) {
        return encode(value, call.returnType(), call.operation());
    }

    @Override
    public String encode(@Nullable Object value, Type type) {
        return encode(value, type, "");
    }

    private String encode(@Nullable Object value, Type type, String name) {
        if (!(value instanceof ResponseEntity<?> entity) || !isResponseEntity(type)) {
            return delegate.encode(value, type);
        }
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("status", entity.getStatusCode().value());
        Map<String, List<String>> headers = new LinkedHashMap<>();
        entity.getHeaders().forEach((header, values) -> {
            if (replayHeaders.keeps(name, header)) {
                headers.put(header, values);
            }
        });
        stored.put("headers", headers);
        stored.put("body", entity.getBody() == null ? null : delegate.encode(entity.getBody(), bodyType(type)));
        return JSON.toJSONString(stored);
    }

    @Override
    public @Nullable Object decode(String payload, Type type) {
        if (!isResponseEntity(type)) {
            return delegate.decode(payload, type);
        }
        StoredEntity stored = JSON.parseObject(payload, StoredEntity.class);
        HttpHeaders headers = new HttpHeaders();
        if (stored.headers != null) {
            // records written before the allow-list existed may hold more: never replay those
            stored.headers.forEach((header, values) -> {
                if (!ReplayHeaders.NEVER_STORED.contains(header.toLowerCase(Locale.ROOT))) {
                    headers.addAll(header, values);
                }
            });
        }
        Object body = stored.body == null ? null : delegate.decode(stored.body, bodyType(type));
        // the builder, not the constructor: its MultiValueMap parameter is not HttpHeaders' type on Framework 7
        return ResponseEntity.status(HttpStatusCode.valueOf(stored.status)).headers(headers).body(body);
    }

    private static boolean isResponseEntity(Type type) {
        Type raw = type instanceof ParameterizedType parameterized ? parameterized.getRawType() : type;
        return raw == ResponseEntity.class;
    }

    private static Type bodyType(Type type) {
        return type instanceof ParameterizedType parameterized ? parameterized.getActualTypeArguments()[0]
                : Object.class;
    }

    /** The stored shape of an entity. */
    public static class StoredEntity {

        /** HTTP status. */
        public int status;

        /** Headers. */
        public @Nullable Map<String, List<String>> headers;

        /** The body, encoded by the delegate. */
        public @Nullable String body;
    }
}
