/**
 * How long to wait between attempts: the {@link io.github.resiliencestarter.retry.backoff.BackOff}
 * and {@link io.github.resiliencestarter.retry.backoff.Jitter} strategies and their ready-made
 * implementations. Depends on nothing else in the starter, so the retry engine uses it one way.
 */
@NullMarked
package io.github.resiliencestarter.retry.backoff;

import org.jspecify.annotations.NullMarked;
