package io.github.resiliencestarter.spring.actuate;

import java.util.Map;

/**
 * One health reading of a part of the starter, independent of the Boot line: each line's health
 * indicator only translates it into its own {@code Health} type.
 *
 * @param status the status code, as Boot's {@code Status} codes
 * @param details what the reading found
 */
public record HealthReport(String status, Map<String, Object> details) {
}
