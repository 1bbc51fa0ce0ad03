/**
 * Auto-configuration of {@code @Idempotent}: the store (Redis, JDBC or memory, chosen at start),
 * the codec, the executor, the advisor, the JDBC purge job and the in-transaction completion.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.idempotent;

import org.jspecify.annotations.NullMarked;
