package io.github.resiliencestarter.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The fault injector (docs/chaos.md): what, where, for which share, when asked, counted. */
class FaultInjectorTest {

    private final Map<String, AtomicInteger> injected = new ConcurrentHashMap<>();

    private final ChaosObserver observer = (fault, kind) -> injected
            .computeIfAbsent(fault + " " + kind, k -> new AtomicInteger()).incrementAndGet();

    private static ChaosFault methodFault(String name, double share, ChaosTrigger trigger) {
        return new ChaosFault(name, "OrderService.place", null, share, null, ConnectException.class, null, trigger);
    }

    private FaultInjector injector(Set<String> requested, ChaosFault... faults) {
        return new FaultInjector(List.of(faults), () -> requested, observer);
    }

    private int count(String key) {
        AtomicInteger counter = injected.get(key);
        return counter == null ? 0 : counter.get();
    }

    @Test
    void aMethodFaultThrowsItsExceptionNamingItselfAndIsCounted() throws Throwable {
        FaultInjector injector = injector(Set.of(), methodFault("refused", 100, ChaosTrigger.ALWAYS));

        injector.beforeMethod("OrderService.cancel");
        assertThat(count("refused exception")).as("another method gets nothing").isZero();
        assertThatThrownBy(() -> injector.beforeMethod("OrderService.place")).isInstanceOf(ConnectException.class)
                .hasMessage("injected by resilience.chaos.faults.refused");
        assertThat(count("refused exception")).isEqualTo(1);
    }

    @Test
    void aShareOfThirtyPercentInjectsThreeCallsOfEveryTenNeverTwoInARow() {
        FaultInjector injector = injector(Set.of(), methodFault("some", 30, ChaosTrigger.ALWAYS));
        StringBuilder pattern = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            try {
                injector.beforeMethod("OrderService.place");
                pattern.append('.');
            } catch (Throwable expected) {
                pattern.append('x');
            }
        }
        // the same in every run: a rehearsal repeats, and the retry after an injected failure goes through
        for (int window = 0; window + 10 <= pattern.length(); window += 10) {
            assertThat(pattern.substring(window, window + 10).chars().filter(c -> c == 'x').count())
                    .as("calls %d to %d", window, window + 9).isEqualTo(3);
        }
        assertThat(pattern.toString()).doesNotContain("xx").startsWith("...x..x..x");
        assertThat(count("some exception")).isEqualTo(600);
    }

    @Test
    void aHeaderTriggeredFaultIsInjectedOnlyIntoRequestsThatAskForIt() throws Throwable {
        ChaosFault fault = methodFault("asked", 100, ChaosTrigger.HEADER);

        injector(Set.of("another"), fault).beforeMethod("OrderService.place");
        assertThat(count("asked exception")).isZero();

        assertThatThrownBy(() -> injector(Set.of("asked"), fault).beforeMethod("OrderService.place"))
                .isInstanceOf(ConnectException.class);
        assertThat(count("asked exception")).isEqualTo(1);
    }

    @Test
    void anInjectedLatencyEndsWithAnInterruptAsASlowCallWould() {
        FaultInjector injector = injector(Set.of(), new ChaosFault("slow", "OrderService.place", null, 100,
                Duration.ofSeconds(30), null, null, ChaosTrigger.ALWAYS));

        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> injector.beforeMethod("OrderService.place")).isInstanceOf(InterruptedException.class);
        assertThat(count("slow latency")).isEqualTo(1);
    }

    @Test
    void anOutboundFaultMatchesHostAndPortBeforeTheHostAndAnswersItsStatus() throws Throwable {
        FaultInjector injector = injector(Set.of(),
                new ChaosFault("port", null, "inventory:8081", 100, null, null, 503, ChaosTrigger.ALWAYS),
                new ChaosFault("host", null, "inventory", 100, null, null, 502, ChaosTrigger.ALWAYS));

        assertThat(injector.beforeRequest("inventory", 8081)).isEqualTo(503);
        assertThat(injector.beforeRequest("inventory", 9090)).isEqualTo(502);
        assertThat(injector.beforeRequest("payments", 8081)).isNull();
        assertThat(count("port status")).isEqualTo(1);
        assertThat(count("host status")).isEqualTo(1);
    }

    @Test
    void faultsThatCannotBeInjectedAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new ChaosFault("both", "A.b", "host", 100, null, ConnectException.class, null,
                ChaosTrigger.ALWAYS)).isInstanceOf(InvalidSettingException.class).hasMessageContaining("method");
        assertThatThrownBy(() -> new ChaosFault("nothing", "A.b", null, 100, null, null, null, ChaosTrigger.ALWAYS))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("latency");
        assertThatThrownBy(() -> new ChaosFault("status on a method", "A.b", null, 100, null, null, 503,
                ChaosTrigger.ALWAYS)).isInstanceOf(InvalidSettingException.class).hasMessageContaining("status");
        assertThatThrownBy(() -> new ChaosFault("not an error", null, "host", 100, null, null, 200,
                ChaosTrigger.ALWAYS)).isInstanceOf(InvalidSettingException.class).hasMessageContaining("400 to 599");
        assertThatThrownBy(() -> new ChaosFault("share", "A.b", null, 150, null, ConnectException.class, null,
                ChaosTrigger.ALWAYS)).isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("between 0 and 100");
        assertThatThrownBy(() -> injector(Set.of(), methodFault("one", 100, ChaosTrigger.ALWAYS),
                methodFault("two", 100, ChaosTrigger.ALWAYS))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both target OrderService.place");
    }
}
