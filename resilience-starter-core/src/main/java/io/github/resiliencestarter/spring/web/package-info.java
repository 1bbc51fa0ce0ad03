/**
 * Servlet web adapters: the inbound {@link io.github.resiliencestarter.spring.web.TraceContextFilter},
 * the RFC 9457 problem responses for the starter's errors, and the propagation of Spring's
 * request-bound state to timeout workers.
 */
@NullMarked
package io.github.resiliencestarter.spring.web;

import org.jspecify.annotations.NullMarked;
