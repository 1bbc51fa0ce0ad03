package io.github.resiliencestarter.spring.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.MessageLite;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A gRPC answer, a protobuf message, is stored as its wire bytes and read back with its own parser. */
class ProtobufResponseCodecTest {

    private final ProtobufResponseCodec codec = new ProtobufResponseCodec(new Fastjson2ResponseCodec());

    @Test
    void aGeneratedMessageRoundTripsToAnEqualMessage() {
        Struct answer = Struct.newBuilder().putFields("order", Value.newBuilder().setStringValue("7").build())
                .putFields("items", Value.newBuilder().setNumberValue(3).build()).build();

        assertThat(codec.canRoundTrip(Struct.class)).isTrue();
        assertThat(codec.decode(codec.encode(answer, Struct.class), Struct.class)).isEqualTo(answer);
    }

    @Test
    void otherTypesGoToTheDelegate() {
        List<String> answer = List.of("a", "b");

        assertThat(codec.encode(answer, List.class)).isEqualTo(new Fastjson2ResponseCodec().encode(answer, List.class));
        assertThat(codec.decode(codec.encode("plain", String.class), String.class)).isEqualTo("plain");
    }

    @Test
    void theMessageInterfaceItselfCannotBeReplayed() {
        // no parser to read it back with: refused at startup, not at the first replay
        assertThat(codec.canRoundTrip(MessageLite.class)).isFalse();
        assertThat(codec.canRoundTrip(StringValue.class)).isTrue();
    }
}
