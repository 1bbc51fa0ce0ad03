/**
 * The rules of a message hop, free of any broker client: how a sender's deadline becomes an
 * absolute expiry in the message and back into a deadline on the consumer, and what the
 * consumer reports when it drops a message nobody waits for any more.
 */
@NullMarked
package io.github.resiliencestarter.messaging;

import org.jspecify.annotations.NullMarked;
