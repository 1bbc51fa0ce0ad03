/**
 * Fault injection for rehearsals: latency, exceptions and HTTP statuses injected into named
 * methods or outbound requests, for a share of calls, always or only for requests that ask for
 * them. Off unless the application switches it on; Spring-free, the starter wires it
 * (docs/chaos.md).
 */
@NullMarked
package io.github.resiliencestarter.chaos;

import org.jspecify.annotations.NullMarked;
