package io.github.resiliencestarter.tracing;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A span the tracer finished, in the terms both bridges share.
 *
 * @param traceId the trace's id
 * @param id the span's own id
 * @param parentId the parent span's id, null for a root
 * @param tags the span's tags (attributes), as strings
 * @param failed whether the span recorded an error
 * @param events the names of its events (Brave's annotations), in order
 */
record FinishedSpan(String traceId, String id, @Nullable String parentId, Map<String, String> tags, boolean failed,
        List<String> events) {
}
