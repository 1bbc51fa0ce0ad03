/**
 * Actuator integrations: the idempotency store's health, the {@code resilience} endpoint listing
 * every annotated method with its effective settings, and the advisor that warns about settings
 * that contradict the rules (T-2, R-3) or rest on a declaration alone.
 */
@NullMarked
package io.github.resiliencestarter.spring.actuate;

import org.jspecify.annotations.NullMarked;
