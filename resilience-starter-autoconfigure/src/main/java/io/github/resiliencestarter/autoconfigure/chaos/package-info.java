/**
 * Auto-configuration of fault injection ({@code resilience.chaos.*}): off unless switched on, and
 * refused in the profiles named for production unless explicitly allowed (docs/chaos.md).
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.chaos;

import org.jspecify.annotations.NullMarked;
