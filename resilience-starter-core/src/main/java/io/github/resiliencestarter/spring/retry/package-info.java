/**
 * Retry classification for Spring's exception types: HTTP client status errors, data access
 * exceptions, validation errors and Redis connection failures.
 */
package io.github.resiliencestarter.spring.retry;
