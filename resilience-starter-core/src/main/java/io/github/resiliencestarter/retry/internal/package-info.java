/** Implementation details of the retry engine. Not an API: anything here may change. */
@NullMarked
package io.github.resiliencestarter.retry.internal;

import org.jspecify.annotations.NullMarked;
