package io.github.resiliencestarter.autoconfigure;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.util.Map;
import org.springframework.validation.Errors;

/**
 * Runs the engine's own checks on bound {@code resilience.*} values at binding time and reports
 * each refusal against the property the value came from. Spring Boot then fails the start with
 * its usual report: the property, its value and origin, the reason, and the action.
 *
 * <p>The checks stay in the engine (one place); this class only translates an engine setting name
 * such as {@code maxDelay} into the property path, {@code instances[orders].max-delay}.
 */
public final class PropertyChecks {

    private final Errors errors;

    private PropertyChecks(Errors errors) {
        this.errors = errors;
    }

    /**
     * Checks that report to the given errors of a properties object.
     *
     * @param errors the errors of the {@code @ConfigurationProperties} object being validated
     * @return the checks
     */
    public static PropertyChecks reportingTo(Errors errors) {
        return new PropertyChecks(errors);
    }

    /**
     * Builds engine settings from a group of properties; a refused setting becomes an error on its
     * property.
     *
     * @param path the group's path relative to the properties object, ending with a dot, or empty
     * @param renames engine setting names whose property is named differently
     * @param build builds the engine objects from the group
     * @return these checks
     */
    public PropertyChecks check(String path, Map<String, String> renames, Runnable build) {
        try {
            build.run();
        } catch (InvalidSettingException ex) {
            String property = renames.getOrDefault(ex.setting(), dashed(ex.setting()));
            errors.rejectValue(path + property, "invalid", ex.reason());
        } catch (IllegalArgumentException ex) {
            errors.reject("invalid", path + ex.getMessage());
        }
        return this;
    }

    /**
     * As {@link #check(String, Map, Runnable)} where every property is named like its setting.
     *
     * @param path the group's path relative to the properties object, ending with a dot, or empty
     * @param build builds the engine objects from the group
     * @return these checks
     */
    public PropertyChecks check(String path, Runnable build) {
        return check(path, Map.of(), build);
    }

    private static String dashed(String camelCase) {
        StringBuilder dashed = new StringBuilder(camelCase.length() + 4);
        for (char c : camelCase.toCharArray()) {
            if (Character.isUpperCase(c)) {
                dashed.append('-').append(Character.toLowerCase(c));
            } else {
                dashed.append(c);
            }
        }
        return dashed.toString();
    }
}
