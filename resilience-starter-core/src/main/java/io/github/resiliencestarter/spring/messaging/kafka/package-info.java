/**
 * Apache Kafka (Spring for Apache Kafka): a producer interceptor that stamps outgoing records, a
 * record interceptor that opens each record's trace context and drops expired records, and the
 * error handler back-off that gives a record whose {@code @Retry} is spent straight to the
 * recoverer (a dead-letter topic, when one is configured) instead of redelivering it.
 */
@NullMarked
package io.github.resiliencestarter.spring.messaging.kafka;

import org.jspecify.annotations.NullMarked;
