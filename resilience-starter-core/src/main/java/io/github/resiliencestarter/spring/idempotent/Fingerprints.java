package io.github.resiliencestarter.spring.idempotent;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
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
 * The request fingerprint: SHA-256 of the canonical JSON (map keys sorted) of the parameters that
 * describe the request. Parameters of infrastructure types (servlet request and response,
 * principal, binding results, streams) are left out; they differ between identical requests.
 */
public final class Fingerprints {

    private static final List<Class<?>> SKIPPED = skippedTypes();

    private static final JSONWriter.Feature[] CANONICAL = {JSONWriter.Feature.MapSortField,
        JSONWriter.Feature.WriteNulls};

    private Fingerprints() {
    }

    /**
     * Which parameters of {@code method} take part in the default fingerprint.
     *
     * @param method the method
     * @return one flag per parameter
     */
    public static boolean[] includedParameters(Method method) {
        Class<?>[] types = method.getParameterTypes();
        boolean[] included = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            included[i] = SKIPPED.stream().noneMatch(skipped -> skipped.isAssignableFrom(type));
        }
        return included;
    }

    /**
     * The fingerprint of some values.
     *
     * @param value what identifies the request
     * @return 64 hex characters
     */
    public static String of(Object value) {
        return IdempotencyKeys.sha256(JSON.toJSONBytes(value, CANONICAL));
    }

    /**
     * The default fingerprint of a call's arguments.
     *
     * @param args the arguments
     * @param included which take part
     * @return 64 hex characters
     */
    public static String ofArguments(Object[] args, boolean[] included) {
        List<Object> values = new ArrayList<>(args.length);
        for (int i = 0; i < args.length; i++) {
            if (included[i]) {
                values.add(args[i]);
            }
        }
        return of(values);
    }

    private static List<Class<?>> skippedTypes() {
        List<Class<?>> types = new ArrayList<>(List.of(Principal.class, InputStream.class, OutputStream.class,
                Reader.class, Writer.class));
        for (String name : List.of("jakarta.servlet.ServletRequest", "jakarta.servlet.ServletResponse",
                "org.springframework.validation.Errors", "org.springframework.ui.Model",
                "org.springframework.web.context.request.WebRequest")) {
            if (ClassUtils.isPresent(name, Fingerprints.class.getClassLoader())) {
                types.add(ClassUtils.resolveClassName(name, Fingerprints.class.getClassLoader()));
            }
        }
        return List.copyOf(types);
    }
}
