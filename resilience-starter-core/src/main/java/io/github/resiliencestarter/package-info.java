/**
 * Resilience Starter: timeouts, retries and idempotency that are correct by default.
 *
 * <p>The engine packages ({@code core}, {@code context}, {@code timeout}, and later {@code retry}
 * and {@code idempotent}) are plain Java and usable without Spring. Spring glue lives under
 * {@code spring}; the layering is enforced by an ArchUnit test.
 */
@NullMarked
package io.github.resiliencestarter;

import org.jspecify.annotations.NullMarked;
