package io.github.resiliencestarter.it.grpc;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Unary gRPC methods of text in, text out: a real gRPC service without generated code. */
public final class TextCalls {

    private static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    };

    private TextCalls() {
    }

    /**
     * A unary method of the test service.
     *
     * @param service the service name
     * @param name the method name
     * @return its descriptor
     */
    public static MethodDescriptor<String, String> unary(String service, String name) {
        return MethodDescriptor.<String, String>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
                .setRequestMarshaller(TEXT).setResponseMarshaller(TEXT).build();
    }
}
