package io.github.resiliencestarter.spring.gateway;

import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * What the service behind the gateway answered, as stored for replay: the status, the
 * allow-listed headers and the body (Base64, so any content type survives the store's text).
 *
 * @param status the HTTP status code
 * @param headers the headers a replay carries
 * @param body the body, Base64
 */
public record GatewayAnswer(int status, Map<String, List<String>> headers, String body) {

    /**
     * An answer with a body of bytes.
     *
     * @param status the status code
     * @param headers the headers kept
     * @param body the body
     * @return the answer
     */
    public static GatewayAnswer of(int status, Map<String, List<String>> headers, byte[] body) {
        return new GatewayAnswer(status, headers, Base64.getEncoder().encodeToString(body));
    }

    /**
     * The body.
     *
     * @return its bytes
     */
    public byte[] bodyBytes() {
        return Base64.getDecoder().decode(body);
    }

    /**
     * Whether the answer is a server failure, which releases the key so that a retry runs again.
     *
     * @return {@code true} for a 5xx status
     */
    public boolean isServerFailure() {
        return status >= 500;
    }
}
