/**
 * The idempotency engine, plain Java: an atomic claim decides the single execution of a key,
 * duplicates replay its first result, and the {@link
 * io.github.resiliencestarter.idempotent.IdempotencyStore} SPI lets Redis, a SQL table or memory
 * hold the records. Store adapters live in {@code idempotent.redis} and {@code idempotent.jdbc}.
 */
package io.github.resiliencestarter.idempotent;
