package io.github.resiliencestarter.idempotent;

import java.lang.reflect.Type;
import java.util.Set;
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
        return encode(value, call.returnType(), call.config().excludedFields());
    }

    /**
     * Encodes a result without some of its fields.
     *
     * @param value the result
     * @param type the declared type
     * @param excludedFields names of fields left out, at any depth; empty for none
     * @return the encoded form
     * @throws UnsupportedOperationException when fields are to be left out and this codec cannot
     *     ({@link #canExcludeFields()})
     */
    default String encode(@Nullable Object value, Type type, Set<String> excludedFields) {
        if (!excludedFields.isEmpty()) {
            throw new UnsupportedOperationException(getClass().getName() + " cannot leave fields out");
        }
        return encode(value, type);
    }

    /**
     * Whether {@link #encode(Object, Type, Set)} can leave fields out; checked at startup for
     * methods that ask it to.
     *
     * @return {@code false} unless the codec says so
     */
    default boolean canExcludeFields() {
        return false;
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
