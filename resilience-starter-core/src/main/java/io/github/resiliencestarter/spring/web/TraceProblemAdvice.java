package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;
import org.springframework.validation.method.MethodValidationResult;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Puts the request's {@code traceId} on every problem the application answers, not only the
 * starter's: Spring's own (validation 400, 404, 405, 415, ...), a user's handler's, and the error
 * body Spring Boot renders for an unhandled exception. A validation problem also lists the invalid
 * fields ({@code errors}: field and message, never the rejected value, which may be sensitive).
 *
 * <p>It is also the first exception resolver, which only records the failure for the body
 * advice, so that no handler has to cooperate.
 */
@ControllerAdvice
public class TraceProblemAdvice implements ResponseBodyAdvice<Object>, HandlerExceptionResolver, Ordered {

    /** Problem property listing the invalid fields of a validation problem. */
    public static final String ERRORS_PROPERTY = "errors";

    private static final String FAILURE_ATTRIBUTE = TraceProblemAdvice.class.getName() + ".failure";

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, @Nullable HttpServletResponse response,
            @Nullable Object handler, Exception failure) {
        request.setAttribute(FAILURE_ATTRIBUTE, failure);
        return null;
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
            MediaType contentType, Class<? extends HttpMessageConverter<?>> converterType,
            ServerHttpRequest request, ServerHttpResponse response) {
        if (!(request instanceof ServletServerHttpRequest servlet)) {
            return body;
        }
        HttpServletRequest http = servlet.getServletRequest();
        if (body instanceof ProblemDetail problem) {
            String traceId = traceId(http);
            if (traceId != null && !hasProperty(problem, ResilienceProblems.TRACE_ID_PROPERTY)) {
                problem.setProperty(ResilienceProblems.TRACE_ID_PROPERTY, traceId);
            }
            List<Map<String, String>> errors = invalidFields(http.getAttribute(FAILURE_ATTRIBUTE));
            if (!errors.isEmpty() && !hasProperty(problem, ERRORS_PROPERTY)) {
                problem.setProperty(ERRORS_PROPERTY, errors);
            }
            return problem;
        }
        if (body instanceof Map<?, ?> map && http.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) != null
                && !map.containsKey(ResilienceProblems.TRACE_ID_PROPERTY)) {
            // Spring Boot's error body for a failure no handler answered (problem details off)
            String traceId = traceId(http);
            List<Map<String, String>> errors = invalidFields(http.getAttribute(FAILURE_ATTRIBUTE));
            if (traceId != null || !errors.isEmpty()) {
                Map<Object, Object> enriched = new LinkedHashMap<>(map);
                if (traceId != null) {
                    enriched.put(ResilienceProblems.TRACE_ID_PROPERTY, traceId);
                }
                // Boot's own binding errors, when asked for, carry the rejected values: never add beside them
                if (!errors.isEmpty() && !map.containsKey(ERRORS_PROPERTY)) {
                    enriched.put(ERRORS_PROPERTY, errors);
                }
                return enriched;
            }
        }
        return body;
    }

    private static boolean hasProperty(ProblemDetail problem, String name) {
        return problem.getProperties() != null && problem.getProperties().containsKey(name);
    }

    private static @Nullable String traceId(HttpServletRequest request) {
        String current = TraceContextHolder.current().traceId();
        if (current != null) {
            return current;
        }
        return request.getAttribute(TraceContextFilter.CONTEXT_ATTRIBUTE) instanceof TraceContext context
                ? context.traceId() : null;
    }

    private static List<Map<String, String>> invalidFields(@Nullable Object failure) {
        List<Map<String, String>> errors = new ArrayList<>();
        if (failure instanceof BindingResult binding) {
            binding.getAllErrors().forEach(error -> errors.add(entry(error, null)));
        } else if (failure instanceof MethodValidationResult validation) {
            for (ParameterValidationResult parameter : validation.getParameterValidationResults()) {
                String name = parameter.getMethodParameter().getParameterName();
                parameter.getResolvableErrors().forEach(error -> errors.add(entry(error, name)));
            }
        }
        return errors;
    }

    private static Map<String, String> entry(MessageSourceResolvable error, @Nullable String parameter) {
        String field = error instanceof FieldError fieldError ? fieldError.getField()
                : error instanceof ObjectError objectError ? objectError.getObjectName() : parameter;
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("field", field != null ? field : "");
        entry.put("message", error.getDefaultMessage() != null ? error.getDefaultMessage() : "invalid");
        return entry;
    }
}
