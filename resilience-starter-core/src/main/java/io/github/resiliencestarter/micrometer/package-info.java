/** Micrometer integrations: the trace context as a context-propagation {@code ThreadLocalAccessor}. */
package io.github.resiliencestarter.micrometer;
