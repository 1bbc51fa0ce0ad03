/**
 * Startup diagnostics: failure analyzers that turn the starter's startup refusals into Spring
 * Boot's report of a description and an action.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.diagnostics;

import org.jspecify.annotations.NullMarked;
