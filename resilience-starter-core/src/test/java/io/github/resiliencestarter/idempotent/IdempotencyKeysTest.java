package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

    @Test
    void invalidKeysAreRefusedWithoutEchoingThem() {
        for (String bad : new String[] {null, "", "   ", "k".repeat(256), "a\nb", "a\u0000b", "a\r\nX-Evil: 1"}) {
            assertThatThrownBy(() -> IdempotencyKeys.validate(bad)).isInstanceOf(IdempotencyKeyException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("X-Evil"));
        }
        IdempotencyKeys.validate("k".repeat(255));
        IdempotencyKeys.validate("订单-42 é");
    }

    @Test
    void IP1_storedKeysAreNamespacedByOperationAndCaller() {
        String key = "42";
        Set<String> stored = new HashSet<>(List.of(
                IdempotencyKeys.storedKey("idem:", "ORDER_CREATE", "alice", key),
                IdempotencyKeys.storedKey("idem:", "ORDER_CREATE", "bob", key),
                IdempotencyKeys.storedKey("idem:", "PAYMENT", "alice", key),
                IdempotencyKeys.storedKey("idem:", "ORDER_CREATE", "", key)));
        assertThat(stored).hasSize(4);
    }

    @Test
    void longAndNonAsciiKeysAreHashedIntoAShortKeyWithoutCollisions() {
        Set<String> stored = new HashSet<>();
        String[] keys = {"a".repeat(255), "a".repeat(254) + "b", "订单", "订单 ", "a:b", "a#b", "#" + "0".repeat(64),
            "ab", "a.b", "a_b"};
        for (String key : keys) {
            String value = IdempotencyKeys.storedKey("idem:", "Orders.create", "user@example.com", key);
            assertThat(value.length()).isLessThanOrEqualTo(255);
            stored.add(value);
        }
        assertThat(stored).hasSize(keys.length);
        // a raw part can never look like a hashed one, nor contain a separator
        assertThat(IdempotencyKeys.storedKey("", "a", "b", "c")).isEqualTo("a:b:c");
    }
}
