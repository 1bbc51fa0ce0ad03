package io.github.resiliencestarter.spring.idempotent;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.springframework.util.ClassUtils;

/**
 * Which arguments of a handler method describe the request, and so take part in the default
 * fingerprint (the engine computes the fingerprint itself). Parameters of infrastructure types
 * (servlet request and response, principal, binding results, streams) are left out: they differ
 * between identical requests.
 */
public final class FingerprintParameters {

    private static final List<Class<?>> SKIPPED = skippedTypes();

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
        boolean[] included = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            included[i] = SKIPPED.stream().noneMatch(skipped -> skipped.isAssignableFrom(type));
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
                "org.springframework.validation.Errors", "org.springframework.ui.Model",
                "org.springframework.web.context.request.WebRequest")) {
            if (ClassUtils.isPresent(name, loader)) {
                types.add(ClassUtils.resolveClassName(name, loader));
            }
        }
        return List.copyOf(types);
    }
}
