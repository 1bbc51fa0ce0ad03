/**
 * The timeout engine, plain Java: {@link io.github.resiliencestarter.timeout.TimeoutConfig} says how
 * long and how, {@link io.github.resiliencestarter.timeout.TimeoutGuard} runs work within it, and
 * the exception types tell a connect timeout, a read timeout and a spent deadline apart (rule T-4).
 */
@NullMarked
package io.github.resiliencestarter.timeout;

import org.jspecify.annotations.NullMarked;
