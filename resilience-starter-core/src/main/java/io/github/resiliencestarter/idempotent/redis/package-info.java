/**
 * The Redis idempotency store (Spring Data Redis): one string per record, every change a single-key
 * Lua script that compares the owner token, so it works unchanged on Redis Cluster.
 */
@NullMarked
package io.github.resiliencestarter.idempotent.redis;

import org.jspecify.annotations.NullMarked;
