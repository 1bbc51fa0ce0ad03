/** Ready-made parts for the timeout engine, such as the bounded executor OFFLOAD runs on. */
package io.github.resiliencestarter.timeout.support;
