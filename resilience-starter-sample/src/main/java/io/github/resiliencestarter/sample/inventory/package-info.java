/**
 * The inventory part, reached over real HTTP even in the same jar: stock reservation with an
 * optimistic version check retried on conflict (I-7), idempotent by the key the order service
 * derives, and fault injection settable at run time.
 */
package io.github.resiliencestarter.sample.inventory;
