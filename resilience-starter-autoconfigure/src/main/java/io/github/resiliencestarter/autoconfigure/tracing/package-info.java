/** Auto-configuration of the tracer integration: the tracer's trace id is the request's. */
@NullMarked
package io.github.resiliencestarter.autoconfigure.tracing;

import org.jspecify.annotations.NullMarked;
