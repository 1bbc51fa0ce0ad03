/** Auto-configuration of {@code @Timeout}: properties, the shared runtime and the advisor. */
@NullMarked
package io.github.resiliencestarter.autoconfigure.timeout;

import org.jspecify.annotations.NullMarked;
