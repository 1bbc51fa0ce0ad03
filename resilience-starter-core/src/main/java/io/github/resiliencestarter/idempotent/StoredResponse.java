package io.github.resiliencestarter.idempotent;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a completed record keeps for replays: a type saying what the payload holds, and the
 * payload. Stores persist both as text and hand them back unchanged; only the engine interprets
 * them. The types are {@value #VALUE} (an encoded result), {@value #VOID}, {@value #OVERSIZE}
 * (completed, too large to keep), {@value #UNREPLAYABLE} (completed, the result could not be
 * encoded), {@value #OUTCOME_UNKNOWN} (executed, but its completion could not be written) and
 * {@code error:<class>} (a cacheable failure, replayed only for exception types the
 * configuration lists, never for a class merely named by the stored data).
 *
 * @param type what the payload holds
 * @param payload the text, or {@code null}
 */
public record StoredResponse(String type, @Nullable String payload) {

    /** Type of a stored result. */
    public static final String VALUE = "value";

    /** Type of a method without a result. */
    public static final String VOID = "void";

    /** Type of a result larger than the limit: completed, not replayable. */
    public static final String OVERSIZE = "oversize";

    /**
     * Type of a result that could not be encoded: completed, not replayable. Duplicates get a
     * clear error; the work never runs again.
     */
    public static final String UNREPLAYABLE = "unreplayable";

    /**
     * Type of an execution whose completion could not be written even after retries: it ran, its
     * outcome is not known. Duplicates get a clear error; the work never runs again.
     */
    public static final String OUTCOME_UNKNOWN = "outcome-unknown";

    private static final StoredResponse OUTCOME_UNKNOWN_RESPONSE = new StoredResponse(OUTCOME_UNKNOWN, null);

    /** Prefix of the type of a stored cacheable failure; the exception's class name follows. */
    public static final String ERROR_PREFIX = "error:";

    /** Prefix of the type of a stored client error; its status, a colon and the class name follow. */
    public static final String CLIENT_ERROR_PREFIX = "client-error:";

    /** Checks the type. */
    public StoredResponse {
        Objects.requireNonNull(type, "type");
    }

    /**
     * An encoded result.
     *
     * @param payload the encoded result
     * @return the stored form
     */
    public static StoredResponse value(String payload) {
        return new StoredResponse(VALUE, Objects.requireNonNull(payload, "payload"));
    }

    /**
     * The record of an execution whose completion could not be written.
     *
     * @return the stored form
     */
    public static StoredResponse outcomeUnknown() {
        return OUTCOME_UNKNOWN_RESPONSE;
    }

    /**
     * The stored form of a cacheable failure.
     *
     * @param failure the failure
     * @return the stored form
     */
    public static StoredResponse failure(Throwable failure) {
        return new StoredResponse(ERROR_PREFIX + failure.getClass().getName(), failure.getMessage());
    }

    /**
     * The stored form of a failure the client caused, replayed as one.
     *
     * @param status its 4xx status
     * @param failure the failure
     * @param detail what the client was told
     * @return the stored form
     */
    public static StoredResponse clientError(int status, Throwable failure, @Nullable String detail) {
        return new StoredResponse(CLIENT_ERROR_PREFIX + status + ':' + failure.getClass().getName(), detail);
    }

    /**
     * Whether this is a stored client error.
     *
     * @return {@code true} for {@code client-error:<status>:<class>}
     */
    public boolean isClientError() {
        return type.startsWith(CLIENT_ERROR_PREFIX);
    }

    /**
     * The stored form read back by a store from its two text fields.
     *
     * @param type the stored type, possibly {@code null} (no response yet)
     * @param payload the stored payload, possibly {@code null}
     * @return the stored form, or {@code null} when there is no type
     */
    public static @Nullable StoredResponse read(@Nullable String type, @Nullable String payload) {
        return type == null ? null : new StoredResponse(type, payload);
    }

    /**
     * Whether this is a stored cacheable failure.
     *
     * @return {@code true} for {@code error:<class>}
     */
    public boolean isFailure() {
        return type.startsWith(ERROR_PREFIX);
    }
}
