/** Implementation details of the timeout engine. Not an API: anything here may change. */
package io.github.resiliencestarter.timeout.internal;
