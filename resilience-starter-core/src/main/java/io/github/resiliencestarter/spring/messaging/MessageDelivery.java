package io.github.resiliencestarter.spring.messaging;

import io.github.resiliencestarter.context.TraceContext;

/**
 * What a listener adapter does with one delivery: run it in {@code context}, or drop it unconsumed
 * when {@code dropped} (its sender asked for a deadline, the deadline passed, and this is the first
 * delivery: nobody waits for its reply any more).
 *
 * @param context the trace context the listener runs in (for a drop: the one logged)
 * @param dropped whether the listener must not run
 */
public record MessageDelivery(TraceContext context, boolean dropped) {
}
