/**
 * Live tuning: {@code resilience.timeout.*} and {@code resilience.retry.*} changed at run time
 * (Spring Cloud's refresh, or {@link io.github.resiliencestarter.autoconfigure.tuning.ResilienceSettings#reload()})
 * apply to every annotated method on its next call, all or nothing.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.tuning;

import org.jspecify.annotations.NullMarked;
