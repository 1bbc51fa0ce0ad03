/**
 * Spring Cloud Gateway (reactive): route filters that carry the starter's guarantees to the edge.
 * {@code Deadline} bounds each forwarded request by the caller's remaining budget (capped on the
 * way in by the inbound filter) and sends it and the trace id downstream; {@code IdempotencyKey}
 * runs each keyed request once with the same store, scope and problems as {@code @Idempotent},
 * answering duplicates from the store.
 */
@NullMarked
package io.github.resiliencestarter.spring.gateway;

import org.jspecify.annotations.NullMarked;
