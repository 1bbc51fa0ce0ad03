/**
 * Types shared by every engine package: the starter's exception root and the callable shape the
 * engines run.
 */
package io.github.resiliencestarter.core;
