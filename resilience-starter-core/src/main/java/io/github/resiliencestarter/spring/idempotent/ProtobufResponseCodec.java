package io.github.resiliencestarter.spring.idempotent;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.Type;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;

/**
 * Stores a protobuf message (what a gRPC method answers) as its wire bytes, Base64 text, and reads
 * it back with the declared message class's own parser: a generated message is no bean a JSON
 * codec could write and read back. Other types go to the delegate. The parser is the class's
 * static {@code parser()}, found once per class; nothing named by the stored data is loaded.
 */
public class ProtobufResponseCodec implements ResponseCodec {

    private final Parsers parsers = new Parsers();

    private final ResponseCodec delegate;

    /**
     * Creates the codec.
     *
     * @param delegate the codec for every other type
     */
    public ProtobufResponseCodec(ResponseCodec delegate) {
        this.delegate = delegate;
    }

    @Override
    public boolean canRoundTrip(Type type) {
        Class<?> message = messageClass(type);
        return message != null ? parsers.of(message) != null : delegate.canRoundTrip(type);
    }

    @Override
    public String encode(@Nullable Object value, IdempotentCall call) {
        return value instanceof MessageLite message && messageClass(call.returnType()) != null
                ? encoded(message, call.config().excludedFields()) : delegate.encode(value, call);
    }

    @Override
    public String encode(@Nullable Object value, Type type) {
        return encode(value, type, Set.of());
    }

    @Override
    public String encode(@Nullable Object value, Type type, Set<String> excludedFields) {
        return value instanceof MessageLite message && messageClass(type) != null
                ? encoded(message, excludedFields) : delegate.encode(value, type, excludedFields);
    }

    @Override
    public boolean canExcludeFields() {
        return delegate.canExcludeFields();
    }

    @Override
    public @Nullable Object decode(String payload, Type type) {
        Class<?> message = messageClass(type);
        if (message == null) {
            return delegate.decode(payload, type);
        }
        Parser<?> parser = parsers.of(message);
        if (parser == null) {
            throw new IllegalStateException(message.getName() + " has no static parser()");
        }
        try {
            return parser.parseFrom(Base64.getDecoder().decode(payload));
        } catch (InvalidProtocolBufferException ex) {
            throw new IllegalArgumentException("The stored answer is no " + message.getName(), ex);
        }
    }

    private static String encoded(MessageLite message, Set<String> excludedFields) {
        if (!excludedFields.isEmpty()) {
            throw new UnsupportedOperationException("A protobuf answer is stored whole; excludeFields "
                    + excludedFields + " cannot apply to it");
        }
        return Base64.getEncoder().encodeToString(message.toByteArray());
    }

    private static @Nullable Class<?> messageClass(Type type) {
        Class<?> raw = ResolvableType.forType(type).resolve();
        return raw != null && MessageLite.class.isAssignableFrom(raw) ? raw : null;
    }

    /**
     * The parsers of message classes, found once per class. Apart from the codec, so that reading
     * the codec's own signatures (as the auto-configuration's compiler does) needs no protobuf class.
     */
    private static final class Parsers {

        private final Map<Class<?>, Parser<?>> known = new ConcurrentHashMap<>();

        @Nullable Parser<?> of(Class<?> message) {
            Parser<?> found = known.get(message);
            if (found != null) {
                return found;
            }
            try {
                if (message.getMethod("parser").invoke(null) instanceof Parser<?> parser) {
                    known.put(message, parser);
                    return parser;
                }
            } catch (ReflectiveOperationException | RuntimeException ex) {
                // not a generated message: it cannot be replayed, which the caller reports at startup
            }
            return null;
        }
    }
}
