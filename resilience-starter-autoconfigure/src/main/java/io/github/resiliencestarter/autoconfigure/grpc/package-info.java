/**
 * Auto-configuration of the gRPC interceptors and the retry classification of gRPC statuses, when
 * grpc-java is on the class path (docs/grpc.md).
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.grpc;

import org.jspecify.annotations.NullMarked;
