package io.github.resiliencestarter.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyInProgressException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyReusedException;
import io.github.resiliencestarter.idempotent.IdempotentReplayException;
import org.junit.jupiter.api.Test;

/** Which listener failures the broker adapters dead-letter at once, wrapped as a container wraps them. */
class FutileRedeliveryTest {

    private static RuntimeException asTheContainerThrowsIt(Throwable failure) {
        return new RuntimeException("Listener method threw exception", failure);
    }

    @Test
    void anEffectWhoseOutcomeCannotBeReplayedIsNotRedelivered() {
        assertThat(FutileRedelivery.reason(asTheContainerThrowsIt(new IdempotentReplayException("lost", null))))
                .contains("cannot be replayed");
    }

    @Test
    void aKeyAnotherPayloadUsedIsNotRedelivered() {
        assertThat(FutileRedelivery.reason(asTheContainerThrowsIt(new IdempotencyKeyReusedException("RECEIPT"))))
                .contains("another payload");
    }

    @Test
    void failuresARedeliveryMayGetPastAreLeftToTheContainer() {
        assertThat(FutileRedelivery.reason(asTheContainerThrowsIt(new IllegalStateException("database down"))))
                .isNull();
        assertThat(FutileRedelivery.reason(asTheContainerThrowsIt(new IdempotencyInProgressException("RECEIPT", 1)))).isNull();
        assertThat(FutileRedelivery.reason(null)).isNull();
    }
}
