/**
 * The Spring side of fault injection: an advisor that puts the injector in front of the methods
 * faults name, an outbound interceptor for {@code RestClient} and {@code RestTemplate}, and the
 * chaos header of the current request (docs/chaos.md).
 */
@NullMarked
package io.github.resiliencestarter.spring.chaos;

import org.jspecify.annotations.NullMarked;
