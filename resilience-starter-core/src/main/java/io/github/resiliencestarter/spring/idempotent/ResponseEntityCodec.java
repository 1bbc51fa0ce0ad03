package io.github.resiliencestarter.spring.idempotent;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private static final Logger log = LoggerFactory.getLogger(ResponseEntityCodec.class);

    /** Operation and header pairs already reported as not stored. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

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
        return encode(value, call.returnType(), call.operation(), call.config().excludedFields());
    }

    @Override
    public String encode(@Nullable Object value, Type type) {
        return encode(value, type, "", Set.of());
    }

    @Override
    public String encode(@Nullable Object value, Type type, Set<String> excludedFields) {
        return encode(value, type, "", excludedFields);
    }

    @Override
    public boolean canExcludeFields() {
        return delegate.canExcludeFields();
    }

    private String encode(@Nullable Object value, Type type, String name, Set<String> excludedFields) {
        if (!(value instanceof ResponseEntity<?> entity) || !isResponseEntity(type)) {
            return delegate.encode(value, type, excludedFields);
        }
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("status", entity.getStatusCode().value());
        Map<String, List<String>> headers = new LinkedHashMap<>();
        List<String> dropped = new ArrayList<>();
        entity.getHeaders().forEach((header, values) -> {
            if (replayHeaders.keeps(name, header)) {
                headers.put(header, values);
            } else if (!ReplayHeaders.NEVER_STORED.contains(header.toLowerCase(Locale.ROOT))) {
                dropped.add(header);
            }
        });
        reportDropped(name, dropped);
        stored.put("headers", headers);
        stored.put("body", entity.getBody() == null ? null
                : delegate.encode(entity.getBody(), bodyType(type), excludedFields));
        return JSON.toJSONString(stored);
    }

    /**
     * A replay without a header the first response had surprises silently: say so, once per
     * operation and header, with the property that keeps it. Headers never stored (cookies,
     * credentials, hop-by-hop) are left out of it: no property keeps them.
     */
    private void reportDropped(String name, List<String> dropped) {
        List<String> firstSeen = new ArrayList<>();
        for (String header : dropped) {
            if (reported.add(name + '\n' + header.toLowerCase(Locale.ROOT))) {
                firstSeen.add(header);
            }
        }
        if (!firstSeen.isEmpty()) {
            log.info("Replays of {} will not carry the response header(s) {}: only allow-listed headers are stored. "
                    + "Keep them with resilience.idempotent.replay-headers-by-name.{}={} (or replay-headers for "
                    + "every name).", name.isEmpty() ? "this operation" : name, firstSeen, name.isEmpty() ? "<name>" : name,
                    String.join(",", firstSeen));
        }
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
