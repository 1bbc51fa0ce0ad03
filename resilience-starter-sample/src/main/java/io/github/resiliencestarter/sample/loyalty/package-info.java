/**
 * Loyalty points, awarded from an order-created event on a RabbitMQ queue (profile {@code rabbit}):
 * a message delivered twice, or sent twice, awards points once ({@code @Idempotent} on the
 * listener, its completion committed with the points on the JDBC store).
 */
package io.github.resiliencestarter.sample.loyalty;
