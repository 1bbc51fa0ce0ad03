package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Arguments that cannot be written as canonical JSON (issue 45, item 8): a clear error of the
 * code before anything is claimed or run, never a {@code StackOverflowError} or a getter's own
 * exception as a bare 500.
 */
class UnfingerprintableArgumentsTest {

    /** An entity with a bidirectional association, as JPA maps an order and its lines. */
    public static final class Order {

        private final List<Line> lines = new ArrayList<>();

        public List<Line> getLines() {
            return lines;
        }
    }

    /** A line that points back at its order. */
    public static final class Line {

        private final Order order;

        Line(Order order) {
            this.order = order;
        }

        public Order getOrder() {
            return order;
        }
    }

    /** An entity whose association is a lazy proxy outside its session. */
    public static final class Detached {

        public List<String> getItems() {
            throw new IllegalStateException("failed to lazily initialize a collection: no session");
        }
    }

    private static IdempotentCall.Builder call() {
        return IdempotentCall.builder("Orders.create", IdempotencyConfig.ofDefaults()).key("k-1");
    }

    @Test
    void aReferenceCycleIsAClearErrorOfTheCode() {
        Order order = new Order();
        order.getLines().add(new Line(order));
        assertThatThrownBy(() -> call().fingerprintOf(new Object[] {order}))
                .isInstanceOf(IdempotencyKeyExpressionException.class)
                .hasMessageContaining("Orders.create").hasMessageContaining("fingerprint = \"#order.orderNo\"");
    }

    @Test
    void aGetterThatFailsIsAClearErrorOfTheCode() {
        assertThatThrownBy(() -> call().fingerprintOf(new Object[] {new Detached()}))
                .isInstanceOf(IdempotencyKeyExpressionException.class).hasMessageContaining("lazy association");
    }
}
