/**
 * The trace context shared by the three aspects: an immutable {@link
 * io.github.resiliencestarter.context.TraceContext} (trace id, deadline, idempotency key, attempt)
 * held per thread, carried to pooled threads by TTL (TransmittableThreadLocal) and opened as a
 * scope that restores what was there before. Also the parsers for inbound trace ids and budgets, so every transport reads them the
 * same way.
 */
@NullMarked
package io.github.resiliencestarter.context;

import org.jspecify.annotations.NullMarked;
