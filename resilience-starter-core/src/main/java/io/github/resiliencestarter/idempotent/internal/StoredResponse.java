package io.github.resiliencestarter.idempotent.internal;

import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.IdempotentReplayException;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;

/**
 * The stored form of a result and its replay. The response type column says what the payload
 * holds: {@code value} (encoded result), {@code void}, {@code oversize} (completed, too large to
 * keep), {@code unreplayable} (completed, the result could not be encoded) or {@code error:<class>} (a cacheable failure, replayed only for types the configuration
 * lists, never for a class merely named by the stored data).
 *
 * @param payload the text to store, or {@code null}
 * @param type what the payload holds
 */
public record StoredResponse(String payload, String type) {

    /** A stored result. */
    public static final String VALUE = "value";

    /** A method without a result. */
    public static final String VOID = "void";

    /** A result larger than the limit: completed, not replayable. */
    public static final String OVERSIZE = "oversize";

    /**
     * Completed inside the business transaction; the response itself follows right after the
     * commit. Replays wait for it; if it never comes, the first result cannot be replayed.
     */
    public static final String PENDING = "pending";

    /**
     * Executed, but the result could not be encoded: completed, not replayable. Duplicates get a
     * clear error; the work never runs again.
     */
    public static final String UNREPLAYABLE = "unreplayable";

    /** Prefix of a stored cacheable failure. */
    public static final String ERROR_PREFIX = "error:";

    /**
     * Encodes a result for storage.
     *
     * @param value the result
     * @param call the call
     * @param codec the codec
     * @return the stored form
     */
    public static StoredResponse encode(Object value, IdempotentCall call, ResponseCodec codec) {
        if (call.returnType() == void.class || call.returnType() == Void.class) {
            return new StoredResponse(null, VOID);
        }
        String payload;
        try {
            payload = codec.encode(value, call);
        } catch (RuntimeException ex) {
            return new StoredResponse(null, UNREPLAYABLE);
        }
        if (payload.getBytes(StandardCharsets.UTF_8).length > call.config().maxResponseBytes()) {
            return new StoredResponse(null, OVERSIZE);
        }
        return new StoredResponse(payload, VALUE);
    }

    /**
     * The stored form of a cacheable failure.
     *
     * @param failure the failure
     * @return the stored form
     */
    public static StoredResponse failure(Throwable failure) {
        return new StoredResponse(failure.getMessage(), ERROR_PREFIX + failure.getClass().getName());
    }

    /**
     * Replays a completed record.
     *
     * @param record the record
     * @param call the call
     * @param codec the codec
     * @return the first result
     * @throws Throwable the stored cacheable failure, or {@link IdempotentReplayException}
     */
    public static Object replay(IdempotencyRecord record, IdempotentCall call, ResponseCodec codec) throws Throwable {
        String type = record.responseType();
        if (VOID.equals(type)) {
            return null;
        }
        if (VALUE.equals(type)) {
            try {
                return codec.decode(record.response(), call.returnType());
            } catch (RuntimeException ex) {
                throw new IdempotencyRecordCorruptedException("the response of " + call.operation()
                        + " does not decode as " + call.returnType().getTypeName(), ex);
            }
        }
        if (PENDING.equals(type)) {
            throw new IdempotentReplayException("The first call of " + call.operation() + " committed, but its "
                    + "response was not recorded; it is not executed again", null);
        }
        if (UNREPLAYABLE.equals(type)) {
            throw new IdempotentReplayException("The first call of " + call.operation() + " completed, but its "
                    + "result could not be stored for replay; it is not executed again", null);
        }
        if (OVERSIZE.equals(type)) {
            throw new IdempotentReplayException("The first response of " + call.operation() + " was larger than "
                    + call.config().maxResponseBytes() + " bytes and was not kept; it is not executed again", null);
        }
        if (type != null && type.startsWith(ERROR_PREFIX)) {
            throw replayedFailure(type.substring(ERROR_PREFIX.length()), record.response(), call);
        }
        throw new IdempotencyRecordCorruptedException("unknown response type for " + call.operation(), null);
    }

    private static Throwable replayedFailure(String className, String message, IdempotentCall call) {
        for (Class<? extends Throwable> allowed : call.config().cacheableExceptions()) {
            if (allowed.getName().equals(className)) {
                try {
                    Constructor<? extends Throwable> constructor = allowed.getConstructor(String.class);
                    return constructor.newInstance(message);
                } catch (ReflectiveOperationException ex) {
                    break;
                }
            }
        }
        return new IdempotentReplayException("The first call of " + call.operation() + " failed with " + className
                + ": " + message, null);
    }
}
