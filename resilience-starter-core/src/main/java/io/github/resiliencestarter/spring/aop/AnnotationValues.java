package io.github.resiliencestarter.spring.aop;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.StringValueResolver;

/** Reads annotation attribute values that may hold placeholders, failing with the method's name. */
public final class AnnotationValues {

    private AnnotationValues() {
    }

    /**
     * Parses a duration attribute ({@code "800ms"}, {@code "PT1S"}, {@code "${x:1s}"}).
     *
     * @param raw the attribute value; empty means unset
     * @param placeholders resolves {@code ${...}}, or {@code null}
     * @param where the annotation and attribute, for example {@code "@Retry(delay)"}
     * @param operation the method, for the error message
     * @param allowZero whether zero is acceptable (a delay) or not (a timeout)
     * @return the duration, or {@code null} when unset
     * @throws IllegalStateException naming the method when the value is invalid
     */
    public static @Nullable Duration duration(@Nullable String raw, @Nullable StringValueResolver placeholders,
            String where, String operation, boolean allowZero) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        String value = placeholders != null ? placeholders.resolveStringValue(raw) : raw;
        try {
            Duration duration = DurationStyle.detectAndParse(value == null ? "" : value.trim());
            if (duration.isNegative() || (!allowZero && duration.isZero())) {
                throw new IllegalArgumentException(allowZero ? "must not be negative" : "must be positive");
            }
            return duration;
        } catch (IllegalArgumentException ex) {
            throw new InvalidDeclarationException(where + " on " + operation + " has an invalid duration '" + raw
                    + "' (resolved to '" + value + "'): " + ex.getMessage() + ".",
                    "Write a " + (allowZero ? "non-negative" : "positive") + " duration such as 800ms, 2s or PT1S.", ex);
        }
    }
}
