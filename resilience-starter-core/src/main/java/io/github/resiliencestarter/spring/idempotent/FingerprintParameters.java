package io.github.resiliencestarter.spring.idempotent;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedMethod;
import org.springframework.util.ClassUtils;

/**
 * Which arguments of an annotated method describe the request or message, and so take part in the
 * default fingerprint (the engine computes the fingerprint itself), resolved once per method.
 *
 * <p>Left out: parameters of infrastructure types (servlet request and response, WebFlux exchange,
 * principal, binding results, streams, headers, a broker's channel, a gRPC response observer), which differ between identical
 * requests; header and cookie values ({@code @RequestHeader}, {@code @CookieValue}, a listener's
 * {@code @Header} and {@code @Headers}: a retry or a redelivery may change only a header, such as
 * an attempt number or the redelivered flag); and multipart parts, which do not encode repeatably.
 * A message envelope counts by its content only, a protobuf message by its wire bytes
 * ({@link MessageEnvelopes}). Parameter annotations
 * count where Spring reads them, on an interface the method implements included. A fingerprint
 * expression covers any of them when they matter.
 */
public final class FingerprintParameters {

    private static final List<Class<?>> SKIPPED = skippedTypes();

    private static final Set<String> SKIPPED_ANNOTATIONS = Set.of(
            "org.springframework.web.bind.annotation.RequestHeader",
            "org.springframework.web.bind.annotation.CookieValue",
            "org.springframework.web.bind.annotation.RequestPart",
            "org.springframework.messaging.handler.annotation.Header",
            "org.springframework.messaging.handler.annotation.Headers");

    /** Per parameter: what of its argument takes part, {@code null} for nothing. */
    private final @Nullable UnaryOperator<@Nullable Object>[] parts;

    private FingerprintParameters(@Nullable UnaryOperator<@Nullable Object>[] parts) {
        this.parts = parts;
    }

    /**
     * Which parameters of {@code method} take part in the default fingerprint, and how.
     *
     * @param method the method
     * @return the selection
     */
    @SuppressWarnings("unchecked")
    public static FingerprintParameters of(Method method) {
        Class<?>[] types = method.getParameterTypes();
        // as Spring reads them: the method's own and those an implemented interface declares
        MethodParameter[] parameters = new AnnotatedMethod(method).getMethodParameters();
        @Nullable UnaryOperator<@Nullable Object>[] parts = new UnaryOperator[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            boolean included = SKIPPED.stream().noneMatch(skipped -> skipped.isAssignableFrom(type))
                    && Arrays.stream(parameters[i].getParameterAnnotations())
                            .noneMatch(annotation -> SKIPPED_ANNOTATIONS.contains(annotation.annotationType().getName()));
            if (included) {
                UnaryOperator<@Nullable Object> content = MessageEnvelopes.contentOf(type);
                parts[i] = content != null ? content : UnaryOperator.identity();
            }
        }
        return new FingerprintParameters(parts);
    }

    /**
     * The values that take part.
     *
     * @param args the arguments of a call
     * @return the values, in order
     */
    public List<@Nullable Object> select(Object[] args) {
        List<@Nullable Object> values = new ArrayList<>(args.length);
        for (int i = 0; i < args.length; i++) {
            UnaryOperator<@Nullable Object> part = parts[i];
            if (part != null) {
                values.add(args[i] == null ? null : part.apply(args[i]));
            }
        }
        return values;
    }

    private static List<Class<?>> skippedTypes() {
        List<Class<?>> types = new ArrayList<>(List.of(Principal.class, InputStream.class, OutputStream.class,
                Reader.class, Writer.class));
        ClassLoader loader = FingerprintParameters.class.getClassLoader();
        for (String name : List.of("jakarta.servlet.ServletRequest", "jakarta.servlet.ServletResponse",
                "jakarta.servlet.http.Part", "org.springframework.validation.Errors", "org.springframework.ui.Model",
                "org.springframework.web.context.request.WebRequest", "org.springframework.http.HttpHeaders",
                "org.springframework.web.multipart.MultipartFile",
                "org.springframework.web.server.ServerWebExchange",
                "org.springframework.http.server.reactive.ServerHttpRequest",
                "org.springframework.http.server.reactive.ServerHttpResponse",
                "org.springframework.http.codec.multipart.Part",
                // a listener's per-delivery plumbing
                "org.springframework.messaging.MessageHeaders", "com.rabbitmq.client.Channel",
                "org.springframework.kafka.support.Acknowledgment", "org.apache.kafka.clients.consumer.Consumer",
                // where a unary gRPC method answers
                "io.grpc.stub.StreamObserver")) {
            if (ClassUtils.isPresent(name, loader)) {
                types.add(ClassUtils.resolveClassName(name, loader));
            }
        }
        return List.copyOf(types);
    }
}
