/**
 * The idempotency engine, plain Java: an atomic claim decides the single execution of a key,
 * duplicates replay its first result, and the {@link
 * io.github.resiliencestarter.idempotent.IdempotencyStore} SPI lets Redis, a SQL table or memory
 * hold the records. Stores receive small records ({@code Claim}, {@code Completion}) and return
 * {@code IdempotencyRecord}s; the engine alone builds stored keys and fingerprints and interprets
 * a {@code StoredResponse}. Store adapters live in {@code idempotent.redis} and
 * {@code idempotent.jdbc}; the engine itself depends on none of its implementations.
 */
@NullMarked
package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.NullMarked;
