/** Implementation details of the timeout engine. Not an API: anything here may change. */
@NullMarked
package io.github.resiliencestarter.timeout.internal;

import org.jspecify.annotations.NullMarked;
