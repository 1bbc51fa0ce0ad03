/** A gRPC-only application, run in a JVM of its own without the web jars; outside the gRPC tests' scanned packages. */
package io.github.resiliencestarter.it.grpconly;
