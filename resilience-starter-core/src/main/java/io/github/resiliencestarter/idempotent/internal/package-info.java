/** Implementation details of the idempotency engine. Not an API: anything here may change. */
package io.github.resiliencestarter.idempotent.internal;
