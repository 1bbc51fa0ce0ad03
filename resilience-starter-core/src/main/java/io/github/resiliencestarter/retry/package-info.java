/**
 * The retry engine, plain Java. {@link io.github.resiliencestarter.retry.RetryConfig} says when and
 * how often, {@link io.github.resiliencestarter.retry.Retrier} runs the loop: only transient
 * failures, with backoff and jitter, never past the request's deadline, and never beyond the
 * per-name {@link io.github.resiliencestarter.retry.RetryBudget}. Back-off and jitter strategies live
 * in {@code retry.backoff}, which depends on nothing else; ready-made budgets in
 * {@code retry.support}, which depends on this package and never the other way round.
 */
@NullMarked
package io.github.resiliencestarter.retry;

import org.jspecify.annotations.NullMarked;
