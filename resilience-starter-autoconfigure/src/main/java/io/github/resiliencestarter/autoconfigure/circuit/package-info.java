/**
 * {@code @CircuitBreaker}: the breakers' settings from {@code resilience.circuit-breaker.*}, the
 * registry, the advisor placed per attempt inside {@code @Retry}, and their live tuning. Switched
 * on when {@code resilience4j-circuitbreaker} is on the class path; without it, a method that
 * carries the annotation stops the start with the dependency to add.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.circuit;

import org.jspecify.annotations.NullMarked;
