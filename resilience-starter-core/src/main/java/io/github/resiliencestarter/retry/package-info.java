/**
 * The retry engine, plain Java. {@link io.github.resiliencestarter.retry.RetryConfig} says when and
 * how often, {@link io.github.resiliencestarter.retry.Retrier} runs the loop: only transient
 * failures, with backoff and jitter, never past the request's deadline, and never beyond the
 * per-name {@link io.github.resiliencestarter.retry.RetryBudget}.
 */
package io.github.resiliencestarter.retry;
