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
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedMethod;
import org.springframework.util.ClassUtils;

/**
 * Which arguments of a handler method describe the request, and so take part in the default
 * fingerprint (the engine computes the fingerprint itself). Left out: parameters of infrastructure
 * types (servlet request and response, WebFlux exchange, principal, binding results, streams,
 * headers), which differ between identical requests; header and cookie values
 * ({@code @RequestHeader}, {@code @CookieValue}: a client's retry may change only a header, such as
 * the attempt number the starter itself sends); and multipart parts, which do not encode
 * repeatably. Parameter annotations count where Spring MVC reads them, on an interface the method
 * implements included. A fingerprint expression covers any of them when they matter.
 */
public final class FingerprintParameters {

    private static final List<Class<?>> SKIPPED = skippedTypes();

    private static final Set<String> SKIPPED_ANNOTATIONS = Set.of(
            "org.springframework.web.bind.annotation.RequestHeader",
            "org.springframework.web.bind.annotation.CookieValue",
            "org.springframework.web.bind.annotation.RequestPart");

    private FingerprintParameters() {
    }

    /**
     * Which parameters of {@code method} take part in the default fingerprint.
     *
     * @param method the method
     * @return one flag per parameter
     */
    public static boolean[] included(Method method) {
        Class<?>[] types = method.getParameterTypes();
        // as Spring MVC reads them: the method's own and those an implemented interface declares
        MethodParameter[] parameters = new AnnotatedMethod(method).getMethodParameters();
        boolean[] included = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            included[i] = SKIPPED.stream().noneMatch(skipped -> skipped.isAssignableFrom(type))
                    && Arrays.stream(parameters[i].getParameterAnnotations())
                            .noneMatch(annotation -> SKIPPED_ANNOTATIONS.contains(annotation.annotationType().getName()));
        }
        return included;
    }

    /**
     * The arguments that take part.
     *
     * @param args the arguments
     * @param included which take part, from {@link #included(Method)}
     * @return the values, in order
     */
    public static List<Object> select(Object[] args, boolean[] included) {
        List<Object> values = new ArrayList<>(args.length);
        for (int i = 0; i < args.length; i++) {
            if (included[i]) {
                values.add(args[i]);
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
                "org.springframework.http.codec.multipart.Part")) {
            if (ClassUtils.isPresent(name, loader)) {
                types.add(ClassUtils.resolveClassName(name, loader));
            }
        }
        return List.copyOf(types);
    }
}
