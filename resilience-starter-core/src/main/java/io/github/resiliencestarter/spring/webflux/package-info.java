/**
 * Reactive web adapters (Spring WebFlux): the inbound {@link
 * io.github.resiliencestarter.spring.webflux.TraceContextWebFilter}, the caller's scope read after
 * Spring Security, the problem responses, and the request state that travels with a request
 * through Reactor's context (Micrometer context-propagation) to wherever its handler runs.
 */
@NullMarked
package io.github.resiliencestarter.spring.webflux;

import org.jspecify.annotations.NullMarked;
