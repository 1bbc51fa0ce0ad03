/**
 * Spring glue: the only place outside the store adapters where the starter touches Spring. The
 * engines stay usable without it.
 */
@NullMarked
package io.github.resiliencestarter.spring;

import org.jspecify.annotations.NullMarked;
