package io.github.resiliencestarter.idempotent;

import java.lang.reflect.Type;
import org.jspecify.annotations.Nullable;

/**
 * Turns a method's result into text for the store and back, using the method's declared generic
 * return type so a replay yields the same type as the first call ({@code Result<String>}, not a
 * map). Implementations must never instantiate a type named by the stored data.
 */
public interface ResponseCodec {

    /**
     * Encodes a result.
     *
     * @param value the result, possibly {@code null}
     * @param type the method's generic return type
     * @return the text to store
     */
    String encode(@Nullable Object value, Type type);

    /**
     * Decodes a stored result.
     *
     * @param payload the stored text
     * @param type the method's generic return type
     * @return the result
     * @throws RuntimeException when the text does not decode to {@code type}
     */
    @Nullable Object decode(String payload, Type type);

    /**
     * Encodes the result of {@code call}. Codecs that store something per operation (which
     * headers of a response to keep, for example) override this; the default encodes with the
     * call's return type.
     *
     * @param value the result, possibly {@code null}
     * @param call the call, with its operation name, return type and settings
     * @return the text to store
     */
    default String encode(@Nullable Object value, IdempotentCall call) {
        return encode(value, call.returnType());
    }

    /**
     * Whether results declared as {@code type} survive {@link #encode} and {@link #decode} as the
     * same value. Checked at startup for every {@code @Idempotent} method: a method whose result
     * cannot be replayed must fail the start, not run twice later.
     *
     * @param type a method's generic return type
     * @return {@code true} when the codec can store and replay it
     */
    default boolean canRoundTrip(Type type) {
        return true;
    }
}
