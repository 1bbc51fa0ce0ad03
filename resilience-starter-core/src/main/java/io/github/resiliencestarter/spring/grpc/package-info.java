/**
 * gRPC (grpc-java): a server interceptor that runs each call in the trace context its metadata and
 * its own gRPC deadline give, and answers the starter's failures with their gRPC statuses; a
 * client interceptor that bounds each outbound call's deadline by the remaining budget and sends
 * the trace id; and the retry classification of gRPC statuses.
 */
@NullMarked
package io.github.resiliencestarter.spring.grpc;

import org.jspecify.annotations.NullMarked;
