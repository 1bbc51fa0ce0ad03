/** Auto-configuration of {@code @Retry}: properties, policies, budgets, the safety gate and the advisor. */
@NullMarked
package io.github.resiliencestarter.autoconfigure.retry;

import org.jspecify.annotations.NullMarked;
