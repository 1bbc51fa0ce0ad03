/**
 * Message adapters shared by the brokers: what a sender stamps on a message (trace id, absolute
 * expiry) and how a consumer opens the trace context of a received one, dropping it when its
 * deadline has passed. Broker-specific hooks live in the sub-packages.
 */
@NullMarked
package io.github.resiliencestarter.spring.messaging;

import org.jspecify.annotations.NullMarked;
