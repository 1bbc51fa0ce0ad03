/** Carries the trace context and MDC into Spring task executors and {@code @Async} methods. */
package io.github.resiliencestarter.spring.task;
