/**
 * JMH benchmarks: the annotations against Resilience4j, Spring Retry and a plain call through real
 * Spring proxies; the timeout against a raw executor round trip and Resilience4j's TimeLimiter;
 * the idempotency stores against the raw Redis and JDBC round trips that do the same work; and
 * the back-off, jitter and budget decisions; and hedging against a simulated slow replica (latency
 * percentiles, extra calls). Run with {@code scripts/bench.sh}.
 */
package io.github.resiliencestarter.benchmarks;
