/**
 * Auto-configuration for servlet web applications: the inbound trace filter, request-state
 * propagation to timeout workers and the problem-details exception handler.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
