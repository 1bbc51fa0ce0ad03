/**
 * The JDBC idempotency store: a table with a unique key on the stored key. Claims commit on their
 * own; completions join the business transaction when one is active on the same DataSource.
 */
@NullMarked
package io.github.resiliencestarter.idempotent.jdbc;

import org.jspecify.annotations.NullMarked;
