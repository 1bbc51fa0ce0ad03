/**
 * Spring Boot auto-configuration of the starter. Everything is switched off with
 * {@code resilience.enabled=false}; every bean backs off when the user defines their own.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure;

import org.jspecify.annotations.NullMarked;
