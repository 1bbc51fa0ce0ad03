package io.github.resiliencestarter.spring.gateway;

import io.github.resiliencestarter.idempotent.KeptAnswers;
import io.github.resiliencestarter.idempotent.OversizedResult;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * What the service behind the gateway answered, as stored for replay: the status, the
 * allow-listed headers and the body (Base64, so any content type survives the store's text); or,
 * for an answer longer than the limit, only that it was too long to keep.
 *
 * @param status the HTTP status code
 * @param headers the headers a replay carries
 * @param body the body, Base64
 * @param oversized whether the body passed the limit and went to the client unrecorded
 */
public record GatewayAnswer(int status, Map<String, List<String>> headers, String body, boolean oversized)
        implements OversizedResult {

    /**
     * An answer with a body of bytes.
     *
     * @param status the status code
     * @param headers the headers kept
     * @param body the body
     * @return the answer
     */
    public static GatewayAnswer of(int status, Map<String, List<String>> headers, byte[] body) {
        return new GatewayAnswer(status, headers, Base64.getEncoder().encodeToString(body), false);
    }

    /**
     * An answer whose body passed the limit: recorded as too long to keep, so that a duplicate is
     * refused rather than forwarded again.
     *
     * @param status the status code
     * @return the answer
     */
    public static GatewayAnswer oversized(int status) {
        return new GatewayAnswer(status, Map.of(), "", true);
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
     * Whether the key keeps this answer ({@link KeptAnswers}, as {@code @Idempotent} does); one it
     * does not keep releases the key, so that the client's retry is forwarded again.
     *
     * @return {@code true} when it is stored and replayed
     */
    public boolean isKept() {
        return KeptAnswers.keeps(status);
    }
}
