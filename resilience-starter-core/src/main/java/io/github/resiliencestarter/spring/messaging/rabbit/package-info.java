/**
 * RabbitMQ (Spring AMQP): a publish post-processor that stamps outgoing messages and a listener
 * container advice that opens each delivery's trace context, drops expired deliveries and hands
 * a failure whose retries are spent to the broker's dead-lettering instead of requeueing it.
 */
@NullMarked
package io.github.resiliencestarter.spring.messaging.rabbit;

import org.jspecify.annotations.NullMarked;
