/**
 * Startup and memory against the peers (issue 49): the same small web application without any
 * resilience library, with this starter (one {@code @Retry} and one {@code @CircuitBreaker}
 * method), and with Resilience4j's Boot starter (one retry and one circuit breaker configured and
 * used). {@code scripts/startup-peers.sh} starts each in fresh JVMs on a class path holding only its
 * own library and writes docs/internals/bench/startup-peers.{json,md}.
 */
@NullMarked
package io.github.resiliencestarter.benchmarks.startup;

import org.jspecify.annotations.NullMarked;
