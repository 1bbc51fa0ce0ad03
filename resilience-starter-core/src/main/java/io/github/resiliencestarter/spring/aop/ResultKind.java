package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.util.ConcurrentReferenceHashMap;

/**
 * How an annotated method delivers its result, which decides what the annotations bound: the call
 * itself, or the completion of what it returns (docs/async.md).
 */
public enum ResultKind {

    /** A plain value (or {@code void}): the call is the work. */
    VALUE,

    /** A {@code CompletableFuture} or {@code CompletionStage}: its completion is the work. */
    STAGE,

    /** A Reactor {@code Mono}: each subscription is the work. */
    MONO,

    /** A Reactor {@code Flux}: each subscription is the work. */
    FLUX,

    /**
     * A unary gRPC service method, {@code void} with a {@code StreamObserver<T>} parameter: its one
     * answer is the work, governed as a stage's completion is.
     */
    OBSERVER;

    private static final String STREAM_OBSERVER = "io.grpc.stub.StreamObserver";

    /**
     * Found once per void method: every call of a governed gRPC method asks. Soft references, so a
     * restarted application context's classes are not held by this static cache.
     */
    private static final Map<Method, Integer> OBSERVER_INDEX = new ConcurrentReferenceHashMap<>();

    /**
     * The kind of a method's result.
     *
     * @param method the annotated method
     * @return its kind
     */
    public static ResultKind of(Method method) {
        Class<?> type = method.getReturnType();
        if (type == CompletableFuture.class || type == CompletionStage.class) {
            return STAGE;
        }
        if (type == void.class && observerIndex(method) >= 0) {
            return OBSERVER;
        }
        // by name: Reactor is optional
        return switch (type.getName()) {
            case "reactor.core.publisher.Mono" -> MONO;
            case "reactor.core.publisher.Flux" -> FLUX;
            default -> VALUE;
        };
    }

    /**
     * The kind of a method's result, refusing what an annotation cannot govern: a {@code Flux} is a
     * stream, with no one completion to bound, retry as a whole or store (docs/async.md).
     *
     * @param method the annotated method
     * @param annotation the annotation, for the message, e.g. {@code "@Retry"}
     * @param described the method as messages name it
     * @return its kind
     * @throws IllegalStateException for a {@code Flux}
     */
    public static ResultKind governable(Method method, String annotation, String described) {
        ResultKind kind = of(method);
        if (kind == FLUX) {
            throw new InvalidDeclarationException(annotation + " on " + described + " returns a Flux, a stream "
                    + "without one completion to govern.", "Return Mono<List<T>> (collectList()) to govern the whole "
                    + "result, or put " + annotation + " on the method each element comes from (docs/async.md).");
        }
        return kind;
    }

    /**
     * Where a method takes the {@code StreamObserver} it answers through, by name: grpc-stub is
     * optional.
     *
     * @param method a method
     * @return the position of its last {@code StreamObserver} parameter, or {@code -1}
     */
    static int observerIndex(Method method) {
        return OBSERVER_INDEX.computeIfAbsent(method, ResultKind::findObserverIndex);
    }

    private static int findObserverIndex(Method method) {
        Class<?>[] types = method.getParameterTypes();
        for (int i = types.length - 1; i >= 0; i--) {
            if (types[i].getName().equals(STREAM_OBSERVER)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the result is governed as a {@code CompletionStage}: a stage, or a unary gRPC answer
     * taken as one.
     *
     * @return {@code true} for {@link #STAGE} and {@link #OBSERVER}
     */
    public boolean completesAStage() {
        return this == STAGE || this == OBSERVER;
    }

    /**
     * Whether the annotations apply to a later completion rather than to the call.
     *
     * @return {@code true} for every kind but {@link #VALUE}
     */
    public boolean isAsync() {
        return this != VALUE;
    }

    /**
     * The type of the value the method delivers: {@code T} of a {@code CompletionStage<T>},
     * {@code Mono<T>} or {@code StreamObserver<T>}, the return type itself for {@link #VALUE}.
     *
     * @param method the method
     * @return the value type ({@code Object} for a raw async type)
     */
    public Type valueType(Method method) {
        if (this == VALUE) {
            return method.getGenericReturnType();
        }
        if (this == OBSERVER) {
            return method.getGenericParameterTypes()[observerIndex(method)] instanceof ParameterizedType observer
                    ? observer.getActualTypeArguments()[0] : Object.class;
        }
        return method.getGenericReturnType() instanceof ParameterizedType async
                ? async.getActualTypeArguments()[0] : Object.class;
    }
}
