package io.github.resiliencestarter.spring.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.ResilienceHeaders;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which sent messages carry the sender's deadline, and which are refused for a spent one. */
class OutboundMessageHeadersTest {

    private final Map<String, String> headers = new HashMap<>();

    private final OutboundMessageHeaders writer = new OutboundMessageHeaders(List.of("commands"));

    private static TraceContext under(Duration budget) {
        return TraceContext.empty().withTraceId("t-1").withDeadline(Deadline.after(budget));
    }

    private void apply(TraceContext context, boolean carriesDeadline) {
        writer.apply(context, "a broker", carriesDeadline, headers::containsKey, headers::put);
    }

    @Test
    void onlyARequestAwaitingItsReplyOrANamedDestinationCarriesTheDeadline() {
        assertThat(writer.carriesDeadline(true, "events")).isTrue();
        assertThat(writer.carriesDeadline(false, "", "commands")).isTrue();
        assertThat(writer.carriesDeadline(false, "", "events")).isFalse();
        assertThat(writer.carriesDeadline(false, (String) null)).isFalse();
        assertThat(OutboundMessageHeaders.REPLIES_ONLY.carriesDeadline(false, "commands")).isFalse();
    }

    @Test
    void anEventGetsTheTraceIdOnlyAndIsNeverRefusedForASpentDeadline() {
        apply(under(Duration.ZERO), false);

        assertThat(headers).containsOnlyKeys(ResilienceHeaders.TRACE_ID);
    }

    @Test
    void aRequestGetsItsExpiryAndIsRefusedOnceTheBudgetIsSpent() {
        long before = System.currentTimeMillis();
        apply(under(Duration.ofSeconds(10)), true);
        assertThat(Long.parseLong(headers.get(ResilienceHeaders.DEADLINE_EPOCH_MS)))
                .isBetween(before + 9_000, System.currentTimeMillis() + 10_000);

        headers.clear();
        assertThatThrownBy(() -> apply(under(Duration.ZERO), true)).isInstanceOf(DeadlineExceededException.class);
        assertThat(headers).isEmpty();
    }

    @Test
    void theSendersOwnHeadersWin() {
        headers.put(ResilienceHeaders.TRACE_ID, "own");
        headers.put(ResilienceHeaders.DEADLINE_EPOCH_MS, "42");

        apply(under(Duration.ofSeconds(10)), true);

        assertThat(headers).containsEntry(ResilienceHeaders.TRACE_ID, "own")
                .containsEntry(ResilienceHeaders.DEADLINE_EPOCH_MS, "42");
    }
}
