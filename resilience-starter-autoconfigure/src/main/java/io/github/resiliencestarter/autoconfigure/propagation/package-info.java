/**
 * Auto-configuration that carries the budget inside the service: bounded JDBC statements (opt-in)
 * and task executors that carry the trace context.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.propagation;

import org.jspecify.annotations.NullMarked;
