package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Idempotency-Key} header as the IETF draft (draft-ietf-httpapi-idempotency-key-header)
 * defines it: an Item Structured Field (RFC 8941) whose value is a String, {@code "8e03978e"}. The
 * bare token {@code 8e03978e}, which clients sent before the draft, is read as the same key. The
 * key is what is inside the quotes, so the 255-character limit applies to it, not to its quotes.
 * Refused with 400, and never echoed: two header fields, a string not closed or with an escape
 * other than {@code \"} and {@code \\}, a character outside printable ASCII, an empty string.
 * Parameters after the string ({@code ;v=1}) are allowed by RFC 8941 and ignored.
 */
public final class IdempotencyKeyHeader {

    private IdempotencyKeyHeader() {
    }

    /**
     * Reads the key from the header's field values.
     *
     * @param name the header's name, for messages
     * @param fields every field line of the header, in order
     * @return the key, or {@code null} when the header is absent
     * @throws IdempotencyKeyException when the header is malformed
     */
    public static @Nullable String parse(String name, List<String> fields) {
        if (fields.isEmpty()) {
            return null;
        }
        if (fields.size() > 1) {
            throw new IdempotencyKeyException("Send one " + name + " header, not " + fields.size());
        }
        String value = fields.get(0).strip();
        if (value.isEmpty()) {
            throw new IdempotencyKeyException("The " + name + " header is empty");
        }
        return value.charAt(0) == '"' ? quoted(name, value) : value;
    }

    /**
     * The header value that carries a key: the sf-string form, for servers that follow the draft.
     *
     * @param key the key, printable ASCII
     * @return the key in quotes, {@code "} and {@code \} escaped
     */
    public static String format(String key) {
        return '"' + key.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static String quoted(String name, String value) {
        StringBuilder key = new StringBuilder(value.length());
        int i = 1;
        while (true) {
            if (i >= value.length()) {
                throw malformed(name, "its string is not closed");
            }
            char c = value.charAt(i++);
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                char escaped = i < value.length() ? value.charAt(i++) : 0;
                if (escaped != '"' && escaped != '\\') {
                    throw malformed(name, "only \\\" and \\\\ may be escaped");
                }
                key.append(escaped);
            } else if (c < 0x20 || c > 0x7E) {
                throw malformed(name, "a string holds printable ASCII only");
            } else {
                key.append(c);
            }
        }
        String rest = value.substring(i).stripTrailing();
        if (!rest.isEmpty() && rest.charAt(0) != ';') {
            throw malformed(name, "nothing but parameters may follow the string");
        }
        if (key.isEmpty()) {
            throw new IdempotencyKeyException("The " + name + " header holds an empty key");
        }
        return key.toString();
    }

    private static IdempotencyKeyException malformed(String name, String why) {
        return new IdempotencyKeyException("The " + name + " header is not a Structured Field string: " + why);
    }
}
