/** Auto-configuration of outbound HTTP propagation for {@code RestTemplate} and {@code RestClient}. */
package io.github.resiliencestarter.autoconfigure.http;
