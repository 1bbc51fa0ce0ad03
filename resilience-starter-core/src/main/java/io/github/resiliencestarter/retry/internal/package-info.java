/** Implementation details of the retry engine. Not an API: anything here may change. */
package io.github.resiliencestarter.retry.internal;
