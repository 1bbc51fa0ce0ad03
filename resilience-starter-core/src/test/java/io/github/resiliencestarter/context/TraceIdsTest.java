package io.github.resiliencestarter.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceIdsTest {

    @ParameterizedTest
    @ValueSource(strings = {"abc", "A-b_9", "0123456789012345678901234567890123456789012345678901234567890123"})
    void acceptsSafeIdsUpToSixtyFourCharacters(String id) {
        assertThat(TraceIds.isValid(id)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a b", "a\r\nSet-Cookie: x", "a;b", "é", "<script>",
        "01234567890123456789012345678901234567890123456789012345678901234"})
    void rejectsUnsafeOrOverlongIds(String id) {
        assertThat(TraceIds.isValid(id)).isFalse();
    }

    @Test
    void readsTheTraceIdOfAValidTraceparent() {
        assertThat(TraceIds.fromTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"})
    void ignoresMalformedTraceparents(String header) {
        assertThat(TraceIds.fromTraceparent(header)).isNull();
    }

    @Test
    void generatedIdsAreValidW3cShapedAndDistinct() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = TraceIds.generate();
            assertThat(id).hasSize(32).matches("[0-9a-f]{32}");
            ids.add(id);
        }
        assertThat(ids).hasSize(10_000);
    }
}
