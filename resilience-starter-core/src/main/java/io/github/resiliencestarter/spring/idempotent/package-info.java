/**
 * Spring glue for {@code @Idempotent}: SpEL keys and fingerprints, the request header and the
 * principal scope, {@code ResponseEntity} replay, and the JDBC completion inside the business
 * transaction.
 */
@NullMarked
package io.github.resiliencestarter.spring.idempotent;

import org.jspecify.annotations.NullMarked;
