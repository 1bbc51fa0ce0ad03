/** Ready-made back-off, jitter and retry-budget strategies. */
package io.github.resiliencestarter.retry.support;
