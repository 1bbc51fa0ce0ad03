package io.github.resiliencestarter.idempotent;

import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/** Turns results into {@link StoredResponse}s and completed records back into results. */
final class ResponseReplay {

    private static final StoredResponse VOID = new StoredResponse(StoredResponse.VOID, null);

    private static final StoredResponse OVERSIZE = new StoredResponse(StoredResponse.OVERSIZE, null);

    private static final StoredResponse UNREPLAYABLE = new StoredResponse(StoredResponse.UNREPLAYABLE, null);

    private ResponseReplay() {
    }

    /**
     * Encodes a result for storage.
     *
     * @param value the result
     * @param call the call
     * @param codec the codec
     * @return the stored form; {@code unreplayable} when the codec fails
     */
    static StoredResponse encode(@Nullable Object value, IdempotentCall call, ResponseCodec codec) {
        if (returnsNothing(call)) {
            return VOID;
        }
        if (value instanceof OversizedResult result && result.oversized()) {
            return OVERSIZE;
        }
        String payload;
        try {
            payload = codec.encode(value, call);
        } catch (RuntimeException ex) {
            return UNREPLAYABLE;
        }
        if (payload.getBytes(StandardCharsets.UTF_8).length > call.config().maxResponseBytes()) {
            return OVERSIZE;
        }
        return StoredResponse.value(payload);
    }

    /**
     * Replays a COMPLETED record, or says why a COMMITTED one whose response never came cannot be.
     * A void method's COMMITTED record replays as done: its only answer is its effect, and the
     * commit is the proof of that (a consumer acknowledges the redelivery instead of failing it
     * forever).
     *
     * @param record the record
     * @param call the call
     * @param codec the codec
     * @param clientErrors rebuilds a kept client error
     * @return the first result
     * @throws Throwable the stored cacheable failure, or {@link IdempotentReplayException}
     */
    static @Nullable Object replay(IdempotencyRecord record, IdempotentCall call, ResponseCodec codec,
            ClientErrorReplay clientErrors) throws Throwable {
        if (record.status() == IdempotencyStatus.COMMITTED) {
            if (returnsNothing(call)) {
                return null;
            }
            throw new IdempotentReplayException("The first call of " + call.operation() + " committed, but its "
                    + "response was not recorded; it is not executed again", null);
        }
        StoredResponse response = record.response();
        if (response == null) {
            throw new IdempotencyRecordCorruptedException("a completed record of " + call.operation()
                    + " has no response type", null);
        }
        switch (response.type()) {
            case StoredResponse.VOID:
                return null;
            case StoredResponse.VALUE:
                String payload = response.payload();
                if (payload == null) {
                    throw new IdempotencyRecordCorruptedException("a completed record of " + call.operation()
                            + " has a value type and no value", null);
                }
                try {
                    return codec.decode(payload, call.returnType());
                } catch (RuntimeException ex) {
                    throw new IdempotencyRecordCorruptedException("the response of " + call.operation()
                            + " does not decode as " + call.returnType().getTypeName(), ex);
                }
            case StoredResponse.UNREPLAYABLE:
                throw new IdempotentReplayException("The first call of " + call.operation() + " completed, but "
                        + "its result could not be stored for replay; it is not executed again", null);
            case StoredResponse.OUTCOME_UNKNOWN:
                throw new IdempotentReplayException("The first call of " + call.operation() + " executed, but its "
                        + "outcome could not be recorded; it is not executed again", null);
            case StoredResponse.OVERSIZE:
                throw new IdempotentReplayException("The first response of " + call.operation() + " was larger "
                        + "than " + call.config().maxResponseBytes() + " bytes and was not kept; it is not "
                        + "executed again", null);
            default:
                if (response.isClientError()) {
                    throw clientError(response, call, clientErrors);
                }
                if (response.isFailure()) {
                    throw replayedFailure(response.type().substring(StoredResponse.ERROR_PREFIX.length()),
                            response.payload(), call);
                }
                throw new IdempotencyRecordCorruptedException("unknown response type for " + call.operation(), null);
        }
    }

    private static boolean returnsNothing(IdempotentCall call) {
        return call.returnType() == void.class || call.returnType() == Void.class;
    }

    private static Throwable clientError(StoredResponse response, IdempotentCall call, ClientErrorReplay clientErrors) {
        String rest = response.type().substring(StoredResponse.CLIENT_ERROR_PREFIX.length());
        int colon = rest.indexOf(':');
        int status;
        try {
            status = colon < 0 ? -1 : Integer.parseInt(rest.substring(0, colon));
        } catch (NumberFormatException ex) {
            status = -1;
        }
        if (status < 400 || status > 499) {
            throw new IdempotencyRecordCorruptedException("a client error of " + call.operation()
                    + " has no 4xx status", null);
        }
        return clientErrors.rebuild(status, rest.substring(colon + 1), response.payload());
    }

    private static Throwable replayedFailure(String className, @Nullable String message, IdempotentCall call) {
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
