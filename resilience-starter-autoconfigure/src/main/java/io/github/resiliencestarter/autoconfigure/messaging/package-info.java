/**
 * Auto-configuration of the message adapters ({@code resilience.messaging.*}): with Spring AMQP on
 * the class path, every {@code RabbitTemplate} stamps what it publishes and every listener
 * container factory runs deliveries in their trace context (docs/messaging.md).
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.messaging;

import org.jspecify.annotations.NullMarked;
