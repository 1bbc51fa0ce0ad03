/** Implementation details of the idempotency engine. Not an API: anything here may change. */
@NullMarked
package io.github.resiliencestarter.idempotent.internal;

import org.jspecify.annotations.NullMarked;
