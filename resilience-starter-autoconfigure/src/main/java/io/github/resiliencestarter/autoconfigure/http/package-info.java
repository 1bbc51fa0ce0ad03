/** Auto-configuration of outbound HTTP propagation for {@code RestTemplate} and {@code RestClient}. */
@NullMarked
package io.github.resiliencestarter.autoconfigure.http;

import org.jspecify.annotations.NullMarked;
