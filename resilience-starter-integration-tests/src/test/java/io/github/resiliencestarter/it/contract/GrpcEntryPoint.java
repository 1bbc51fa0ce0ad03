package io.github.resiliencestarter.it.contract;

import io.github.resiliencestarter.testsupport.Eventually;
import io.github.resiliencestarter.testsupport.contract.ContractAnswer;
import io.github.resiliencestarter.testsupport.contract.ContractProcess;
import io.github.resiliencestarter.testsupport.contract.EntryPoint;
import io.github.resiliencestarter.testsupport.contract.EntryPointCapability;
import io.github.resiliencestarter.testsupport.contract.HttpEntryPoint;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The gRPC entry point as a client drives it: a unary call with the key in {@code idempotency-key}
 * metadata and the caller's HTTP Basic credentials in {@code authorization}. Its statuses read as
 * HTTP's: {@code OK} 201 (the work's own), {@code ABORTED} 409, {@code UNAVAILABLE} 503,
 * {@code DEADLINE_EXCEEDED} 504.
 */
final class GrpcEntryPoint implements EntryPoint {

    static final Metadata.Key<String> KEY = Metadata.Key.of("idempotency-key", Metadata.ASCII_STRING_MARSHALLER);

    static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization",
            Metadata.ASCII_STRING_MARSHALLER);

    private static final Metadata.Key<String> REPLAYED = Metadata.Key.of("idempotent-replayed",
            Metadata.ASCII_STRING_MARSHALLER);

    private final ManagedChannel channel;

    private GrpcEntryPoint(ManagedChannel channel) {
        this.channel = channel;
    }

    /** A driver of the server listening on {@code port}, on a channel of its own ({@link #close}). */
    static GrpcEntryPoint to(int port) {
        return new GrpcEntryPoint(Grpc.newChannelBuilderForAddress("127.0.0.1", port,
                InsecureChannelCredentials.create()).build());
    }

    /** Closes the channel. */
    void close() {
        channel.shutdownNow();
    }

    @Override
    public EntryPoint in(ContractProcess process) {
        GrpcEntryPoint there = to(process.port(name()));
        process.onClose(there::close);
        return there;
    }

    @Override
    public String name() {
        return "grpc";
    }

    @Override
    public Set<EntryPointCapability> capabilities() {
        return EnumSet.of(EntryPointCapability.ANSWERS, EntryPointCapability.CALLERS, EntryPointCapability.DEADLINES,
                EntryPointCapability.KILLABLE);
    }

    @Override
    public ContractAnswer send(String caller, String key, String payload, @Nullable Duration budget) {
        Metadata headers = new Metadata();
        headers.put(KEY, key);
        headers.put(AUTHORIZATION, "Basic " + Base64.getEncoder().encodeToString((caller + ":"
                + HttpEntryPoint.PASSWORD).getBytes(StandardCharsets.UTF_8)));
        AtomicReference<Metadata> answerHeaders = new AtomicReference<>();
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        try {
            String answer = ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                    MetadataUtils.newAttachHeadersInterceptor(headers),
                    MetadataUtils.newCaptureMetadataInterceptor(answerHeaders, trailers)), ServletEntryPointsApplication.PERFORM,
                    CallOptions.DEFAULT.withDeadlineAfter(budget != null ? budget.toMillis()
                            : Eventually.GENEROUSLY.plusSeconds(10).toMillis(), TimeUnit.MILLISECONDS),
                    payload);
            Metadata received = answerHeaders.get();
            boolean replayed = received != null && "true".equals(received.get(REPLAYED));
            return new ContractAnswer(201, answer.getBytes(StandardCharsets.UTF_8), Map.of(), replayed);
        } catch (StatusRuntimeException failure) {
            Status.Code code = failure.getStatus().getCode();
            int status = code == Status.Code.ABORTED ? 409 : code == Status.Code.UNAVAILABLE ? 503
                    : code == Status.Code.DEADLINE_EXCEEDED ? 504 : 500;
            return new ContractAnswer(status, new byte[0], Map.of(), false);
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
