/** Spring Cloud Gateway (reactive): the {@code Deadline} and {@code IdempotencyKey} route filters. */
@NullMarked
package io.github.resiliencestarter.autoconfigure.gateway;

import org.jspecify.annotations.NullMarked;
