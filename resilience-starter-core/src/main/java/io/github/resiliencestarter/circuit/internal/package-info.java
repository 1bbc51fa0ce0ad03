/**
 * How a breaker decides, for {@code circuit} only: what a finished call contributes
 * ({@code AttemptJudge}), the recovery ramp, the gate the retry loop asks, and the translation
 * to Resilience4j's state machine.
 */
@NullMarked
package io.github.resiliencestarter.circuit.internal;

import org.jspecify.annotations.NullMarked;
