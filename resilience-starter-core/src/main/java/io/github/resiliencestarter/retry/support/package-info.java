/** Ready-made retry-budget strategies. */
@NullMarked
package io.github.resiliencestarter.retry.support;

import org.jspecify.annotations.NullMarked;
