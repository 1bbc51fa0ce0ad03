/** Ready-made retry-budget strategies. */
package io.github.resiliencestarter.retry.support;
