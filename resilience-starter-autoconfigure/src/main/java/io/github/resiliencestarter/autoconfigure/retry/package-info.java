/** Auto-configuration of {@code @Retry}: properties, policies, budgets, the safety gate and the advisor. */
package io.github.resiliencestarter.autoconfigure.retry;
