/**
 * Spring Security glue: the caller's security context on every worker the starter uses.
 */
@NullMarked
package io.github.resiliencestarter.spring.security;

import org.jspecify.annotations.NullMarked;
