/**
 * Spring Security glue: the caller's security context on every worker the starter uses.
 */
package io.github.resiliencestarter.spring.security;
