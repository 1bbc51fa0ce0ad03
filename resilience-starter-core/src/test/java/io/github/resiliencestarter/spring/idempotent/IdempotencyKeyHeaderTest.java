package io.github.resiliencestarter.spring.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code Idempotency-Key} header read as the IETF draft's Item Structured Field String. */
class IdempotencyKeyHeaderTest {

    private static String parse(String... fields) {
        return IdempotencyKeyHeader.parse("Idempotency-Key", List.of(fields));
    }

    @Test
    void theQuotedStringAndTheBareTokenAreTheSameKey() {
        assertThat(parse("\"8e03978e-40d5\"")).isEqualTo("8e03978e-40d5");
        assertThat(parse("8e03978e-40d5")).isEqualTo("8e03978e-40d5");
        assertThat(parse("  \"k\"  ")).isEqualTo("k");
        assertThat(parse("\"a \\\"b\\\" \\\\c\"")).isEqualTo("a \"b\" \\c");
        // parameters are allowed on an Item, and are not the key
        assertThat(parse("\"k\";v=1")).isEqualTo("k");
        assertThat(IdempotencyKeyHeader.parse("Idempotency-Key", List.of())).isNull();
    }

    @Test
    void malformedValuesAreRefusedWithoutEchoingThem() {
        for (String malformed : List.of("\"abc", "\"\"", "\"a\\b\"", "\"é\"", "\"tab\there\"", "\"k\" x", "")) {
            assertThatThrownBy(() -> parse(malformed)).as(malformed).isInstanceOf(IdempotencyKeyException.class)
                    .satisfies(refused -> {
                        if (malformed.length() > 3) {
                            assertThat(refused.getMessage()).doesNotContain(malformed);
                        }
                    });
        }
        assertThatThrownBy(() -> parse("a", "b")).isInstanceOf(IdempotencyKeyException.class)
                .hasMessageContaining("one Idempotency-Key header, not 2");
    }

    @Test
    void aKeySentOutIsTheQuotedFormThatReadsBackAsTheKey() {
        for (String key : List.of("0f3a", "with \"quotes\" and \\")) {
            assertThat(parse(IdempotencyKeyHeader.format(key))).isEqualTo(key);
        }
        assertThat(IdempotencyKeyHeader.format("0f3a")).isEqualTo("\"0f3a\"");
    }
}
