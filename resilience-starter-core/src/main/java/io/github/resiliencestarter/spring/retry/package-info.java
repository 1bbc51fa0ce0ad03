/**
 * Retry classification for Spring's exception types: HTTP client status errors, data access
 * exceptions, validation errors and Redis connection failures.
 */
@NullMarked
package io.github.resiliencestarter.spring.retry;

import org.jspecify.annotations.NullMarked;
