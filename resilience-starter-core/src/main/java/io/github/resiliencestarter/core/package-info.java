/**
 * Types shared by every engine package: the starter's exception root and the callable shape the
 * engines run.
 */
@NullMarked
package io.github.resiliencestarter.core;

import org.jspecify.annotations.NullMarked;
