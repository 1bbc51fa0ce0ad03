/** Carries the trace context and MDC into Spring task executors and {@code @Async} methods. */
@NullMarked
package io.github.resiliencestarter.spring.task;

import org.jspecify.annotations.NullMarked;
