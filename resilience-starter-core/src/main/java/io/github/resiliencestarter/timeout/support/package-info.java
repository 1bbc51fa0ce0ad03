/** Ready-made parts for the timeout engine, such as the bounded executor OFFLOAD runs on. */
@NullMarked
package io.github.resiliencestarter.timeout.support;

import org.jspecify.annotations.NullMarked;
