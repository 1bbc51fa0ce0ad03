/**
 * Micrometer integrations: meters for the three annotations and the idempotency store, and the
 * trace context as a context-propagation {@code ThreadLocalAccessor}. Tags are low-cardinality
 * only: operation names and outcomes, never keys or trace ids.
 */
@NullMarked
package io.github.resiliencestarter.micrometer;

import org.jspecify.annotations.NullMarked;
