package io.github.resiliencestarter.tracing;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A span the tracer finished, in the terms both bridges share.
 *
 * @param traceId the trace's id
 * @param parentId the parent span's id, null for a root
 * @param tags the span's tags (attributes), as strings
 * @param failed whether the span recorded an error
 */
record FinishedSpan(String traceId, @Nullable String parentId, Map<String, String> tags, boolean failed) {
}
