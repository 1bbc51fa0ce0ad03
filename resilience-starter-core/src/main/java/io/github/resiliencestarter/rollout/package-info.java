/**
 * Gradual rollout of a policy: each named policy either enforces what it decides or only observes
 * it (records what it would have done and lets the call go on as without it), for a stable share
 * of requests. The share is chosen by a hash of something every node sees alike (the idempotency
 * key, the trace id), so one request gets one decision on every node. Spring-free; the starter's
 * properties and live tuning fill it (docs/rollout.md).
 */
@NullMarked
package io.github.resiliencestarter.rollout;

import org.jspecify.annotations.NullMarked;
