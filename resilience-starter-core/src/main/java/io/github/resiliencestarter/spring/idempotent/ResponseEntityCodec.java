package io.github.resiliencestarter.spring.idempotent;

import com.alibaba.fastjson2.JSON;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;

/**
 * Replays a {@code ResponseEntity<T>} with full fidelity: status, headers and a body decoded with
 * {@code T}. Other types go to the delegate codec. A replayed entity carries
 * {@code Idempotent-Replayed: true}.
 */
public class ResponseEntityCodec implements ResponseCodec {

    private final ResponseCodec delegate;

    /**
     * Creates the codec.
     *
     * @param delegate the codec for bodies and other results
     */
    public ResponseEntityCodec(ResponseCodec delegate) {
        this.delegate = delegate;
    }

    @Override
    public String encode(Object value, Type type) {
        if (!(value instanceof ResponseEntity<?> entity) || !isResponseEntity(type)) {
            return delegate.encode(value, type);
        }
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("status", entity.getStatusCode().value());
        Map<String, List<String>> headers = new LinkedHashMap<>();
        entity.getHeaders().forEach(headers::put);
        stored.put("headers", headers);
        stored.put("body", entity.getBody() == null ? null : delegate.encode(entity.getBody(), bodyType(type)));
        return JSON.toJSONString(stored);
    }

    @Override
    public Object decode(String payload, Type type) {
        if (!isResponseEntity(type)) {
            return delegate.decode(payload, type);
        }
        StoredEntity stored = JSON.parseObject(payload, StoredEntity.class);
        HttpHeaders headers = new HttpHeaders();
        if (stored.headers != null) {
            stored.headers.forEach(headers::put);
        }
        headers.set(RequestHeaders.REPLAYED, "true");
        Object body = stored.body == null ? null : delegate.decode(stored.body, bodyType(type));
        return new ResponseEntity<>(body, headers, HttpStatusCode.valueOf(stored.status));
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
        public Map<String, List<String>> headers;

        /** The body, encoded by the delegate. */
        public String body;
    }
}
