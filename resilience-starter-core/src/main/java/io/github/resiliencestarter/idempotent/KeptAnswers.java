package io.github.resiliencestarter.idempotent;

import java.util.Set;

/**
 * Which answers a key keeps: the one rule every entry point applies (a controller's answer or
 * exception, a WebFlux handler's, a gateway route's upstream answer). A success, a redirect and a
 * client error the same request would get again (400, 404, 422, …) are stored and replayed, so a
 * retry learns the same thing without the work running twice. An answer that asks the client to
 * authenticate, to wait or to resolve a conflict (401, 403, 408, 409, 425, 429), and every server
 * failure (5xx), releases the key: a retry under the same key must run, not meet the refusal again.
 */
public final class KeptAnswers {

    /** Client errors that release the key: the same request may well succeed later. */
    public static final Set<Integer> RELEASING_CLIENT_ERRORS = Set.of(401, 403, 408, 409, 425, 429);

    private KeptAnswers() {
    }

    /**
     * Whether an answer with this status is kept and replayed.
     *
     * @param status an HTTP status code
     * @return {@code true} for 1xx to 3xx, and 4xx other than {@link #RELEASING_CLIENT_ERRORS}
     */
    public static boolean keeps(int status) {
        // a switch, not the set: asked on every completion that carries a status, it boxes nothing
        return switch (status) {
            case 401, 403, 408, 409, 425, 429 -> false;
            default -> status >= 100 && status <= 499;
        };
    }

    /**
     * Whether a failure with this status is a client error the key keeps.
     *
     * @param status an HTTP status code, or 0 when the failure has none
     * @return {@code true} for a kept 4xx
     */
    public static boolean keepsClientError(int status) {
        return status >= 400 && keeps(status);
    }
}
