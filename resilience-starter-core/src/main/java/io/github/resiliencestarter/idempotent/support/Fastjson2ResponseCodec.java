package io.github.resiliencestarter.idempotent.support;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.fastjson2.filter.Filter;
import com.alibaba.fastjson2.filter.PropertyFilter;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Encodes results as JSON with fastjson2 and decodes them with the method's declared generic type.
 * AutoType stays off and no type name is written, so stored data can never choose a class to
 * instantiate; unknown fields fail the decode instead of being silently dropped.
 */
public class Fastjson2ResponseCodec implements ResponseCodec {

    private static final JSONWriter.Feature[] WRITE = {JSONWriter.Feature.WriteNulls,
        JSONWriter.Feature.FieldBased, JSONWriter.Feature.ReferenceDetection};

    private static final JSONReader.Feature[] READ = {JSONReader.Feature.FieldBased,
        JSONReader.Feature.ErrorOnUnknownProperties};

    /**
     * Types whose values are handles to work, streams or resources rather than data: their JSON
     * is not the value (a {@code CompletableFuture} serializes as its state flags). Named, so
     * none of these libraries is needed on the class path.
     */
    private static final List<String> NOT_DATA = List.of("java.util.concurrent.Future",
            "java.util.concurrent.CompletionStage", "java.util.concurrent.Callable", "java.util.stream.BaseStream",
            "java.util.Iterator", "java.io.InputStream", "java.io.Reader", "java.lang.Thread",
            "org.reactivestreams.Publisher", "org.springframework.core.io.InputStreamSource",
            "org.springframework.web.context.request.async.DeferredResult",
            "org.springframework.web.context.request.async.WebAsyncTask",
            "org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter",
            "org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody");

    /** What {@link #canRoundTrip} refuses, for error messages. */
    public static final String NOT_SUPPORTED = "futures and other async handles (CompletableFuture, Mono, Flux), "
            + "streams, iterators, resources and emitters";

    @Override
    public boolean canRoundTrip(Type type) {
        Class<?> raw = type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> c
                ? c : type instanceof Class<?> c ? c : Object.class;
        return !isNotData(raw);
    }

    private static boolean isNotData(Class<?> raw) {
        for (Class<?> current = raw; current != null && current != Object.class; current = current.getSuperclass()) {
            if (NOT_DATA.contains(current.getName())) {
                return true;
            }
            for (Class<?> implemented : current.getInterfaces()) {
                if (isNotData(implemented)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String encode(@Nullable Object value, Type type) {
        // an id, a count or a flag is its own JSON text: no writer to set up (a few hundred nanoseconds)
        if (value == null || value instanceof Integer || value instanceof Long || value instanceof Boolean
                || value instanceof Short || value instanceof Byte) {
            return String.valueOf(value);
        }
        return JSON.toJSONString(value, WRITE);
    }

    @Override
    public String encode(@Nullable Object value, Type type, Set<String> excludedFields) {
        if (excludedFields.isEmpty()) {
            return encode(value, type);
        }
        // by name, at any depth: the secret may sit in a nested object or a list of them
        PropertyFilter leaveOut = (object, name, fieldValue) -> !excludedFields.contains(name);
        return JSON.toJSONString(value, new Filter[] {leaveOut}, WRITE);
    }

    @Override
    public boolean canExcludeFields() {
        return true;
    }

    @Override
    public @Nullable Object decode(String payload, Type type) {
        return JSON.parseObject(payload, type, READ);
    }
}
