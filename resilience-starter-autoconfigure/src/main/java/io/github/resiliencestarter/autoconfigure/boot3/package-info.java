/**
 * What differs on Spring Boot 3.x: the customizers that hand the propagation interceptors to Boot's
 * HTTP client builders, and the idempotency store's health indicator. Boot 4 moved these types,
 * so each line has its own small bridge, switched on by the presence of its line's types; the rest
 * of the auto-configuration is shared (see docs/internals/decisions.md).
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.boot3;

import org.jspecify.annotations.NullMarked;
