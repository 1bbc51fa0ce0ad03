package io.github.resiliencestarter.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.messaging.MessageObserver;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which deliveries are dropped for expiry, and the deadline the others run under. */
class InboundMessageContextTest {

    private final Map<String, String> headers = new HashMap<>();

    private static InboundMessageContext reader(Duration defaultBudget) {
        return new InboundMessageContext(Duration.ofMinutes(5), defaultBudget, null, MessageObserver.NONE);
    }

    private void expiresIn(long millis) {
        headers.put(ResilienceHeaders.DEADLINE_EPOCH_MS, Long.toString(System.currentTimeMillis() + millis));
    }

    @Test
    void theFirstDeliveryOfAMessageWhoseExpiryPassedIsDropped() {
        expiresIn(-1_000);

        assertThat(reader(null).read(headers::get, false).dropped()).isTrue();
    }

    @Test
    void aRedeliveryPastItsExpiryRunsUnderTheDefaultBudgetNotTheSpentDeadline() {
        expiresIn(-1_000);

        MessageDelivery withoutDefault = reader(null).read(headers::get, true);
        MessageDelivery withDefault = reader(Duration.ofSeconds(20)).read(headers::get, true);

        assertThat(withoutDefault.dropped()).isFalse();
        assertThat(withoutDefault.context().deadline()).isNull();
        assertThat(withDefault.dropped()).isFalse();
        assertThat(withDefault.context().deadline().remaining()).isGreaterThan(Duration.ofSeconds(19));
    }

    @Test
    void aMessageWithoutAnExpiryIsNeverDroppedEvenWhenTheDefaultBudgetIsTiny() {
        MessageDelivery delivery = reader(Duration.ofNanos(1)).read(headers::get, false);

        assertThat(delivery.dropped()).isFalse();
        assertThat(delivery.context().deadline()).isNotNull();
    }

    @Test
    void aMessageWithTimeLeftRunsUnderItsSendersDeadline() {
        expiresIn(10_000);

        MessageDelivery delivery = reader(Duration.ofMinutes(1)).read(headers::get, true);

        assertThat(delivery.dropped()).isFalse();
        assertThat(delivery.context().deadline().remaining()).isLessThanOrEqualTo(Duration.ofSeconds(10));
    }
}
