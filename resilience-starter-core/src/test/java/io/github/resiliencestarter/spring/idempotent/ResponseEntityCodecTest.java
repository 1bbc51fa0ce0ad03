package io.github.resiliencestarter.spring.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.core.ResolvableType;
import org.springframework.http.ResponseEntity;

/** A replayed {@code ResponseEntity}: allow-listed headers only, and a word about the others. */
class ResponseEntityCodecTest {

    private static final Type ENTITY = ResolvableType.forClassWithGenerics(ResponseEntity.class, String.class).getType();

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    private final Logger logger = (Logger) LoggerFactory.getLogger(ResponseEntityCodec.class);

    @BeforeEach
    void listen() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void stopListening() {
        logger.detachAppender(logged);
    }

    private static IdempotentCall call(String name) {
        return new IdempotentCall(name, "k", "fp", ENTITY, IdempotencyConfig.ofDefaults());
    }

    private static ResponseEntity<String> created() {
        return ResponseEntity.status(201).header("Location", "/orders/1").header("X-Request-Cost", "3")
                .header("Set-Cookie", "session=secret").body("created");
    }

    @Test
    void headersLeftOutOfTheReplayAreNamedOncePerOperationWithThePropertyThatKeepsThem() {
        ResponseEntityCodec codec = new ResponseEntityCodec(new Fastjson2ResponseCodec());

        ResponseEntity<?> replay = (ResponseEntity<?>) codec.decode(codec.encode(created(), call("ORDER")), ENTITY);
        codec.encode(created(), call("ORDER"));

        assertThat(replay.getHeaders().getFirst("Location")).isEqualTo("/orders/1");
        assertThat(replay.getHeaders().getFirst("X-Request-Cost")).isNull();
        assertThat(replay.getHeaders().getFirst("Set-Cookie")).isNull();
        assertThat(logged.list).hasSize(1);
        String line = logged.list.get(0).getFormattedMessage();
        assertThat(line).contains("ORDER", "X-Request-Cost",
                "resilience.idempotent.replay-headers-by-name.ORDER=X-Request-Cost")
                // no property keeps a cookie: nothing to suggest
                .doesNotContain("Set-Cookie");
        codec.encode(created(), call("PAYMENT"));
        assertThat(logged.list).as("another operation is told too").hasSize(2);
    }

    @Test
    void aHeaderKeptByItsPropertyIsReplayedAndNotReported() {
        ResponseEntityCodec codec = new ResponseEntityCodec(new Fastjson2ResponseCodec(),
                new ReplayHeaders(List.of(), Map.of("ORDER", List.of("X-Request-Cost"))));

        ResponseEntity<?> replay = (ResponseEntity<?>) codec.decode(codec.encode(created(), call("ORDER")), ENTITY);

        assertThat(replay.getHeaders().getFirst("X-Request-Cost")).isEqualTo("3");
        assertThat(logged.list).isEmpty();
    }
}
