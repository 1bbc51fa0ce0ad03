/**
 * Orders: creation guarded by {@code @Timeout}, {@code @Idempotent} (key = order number) and a
 * retried inventory call; payment as a conditional status update (I-7).
 */
package io.github.resiliencestarter.sample.order;
