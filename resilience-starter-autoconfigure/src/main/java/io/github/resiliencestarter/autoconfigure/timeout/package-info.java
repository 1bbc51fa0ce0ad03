/** Auto-configuration of {@code @Timeout}: properties, the shared runtime and the advisor. */
package io.github.resiliencestarter.autoconfigure.timeout;
