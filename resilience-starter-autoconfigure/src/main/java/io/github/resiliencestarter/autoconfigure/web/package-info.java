/**
 * Auto-configuration for servlet web applications: the inbound trace filter, request-state
 * propagation to timeout workers and the problem-details exception handler.
 */
package io.github.resiliencestarter.autoconfigure.web;
