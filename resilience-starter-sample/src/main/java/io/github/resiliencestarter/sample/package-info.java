/** A small service that shows the starter end to end; the order service grows here. */
package io.github.resiliencestarter.sample;
