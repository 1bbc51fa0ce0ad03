/** A gRPC-only application, run in a JVM of its own without the web jars. */
package io.github.resiliencestarter.it.grpc.only;
