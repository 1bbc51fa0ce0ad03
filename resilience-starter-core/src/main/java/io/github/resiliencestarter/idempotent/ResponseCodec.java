package io.github.resiliencestarter.idempotent;

import java.lang.reflect.Type;

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
    String encode(Object value, Type type);

    /**
     * Decodes a stored result.
     *
     * @param payload the stored text
     * @param type the method's generic return type
     * @return the result
     * @throws RuntimeException when the text does not decode to {@code type}
     */
    Object decode(String payload, Type type);
}
