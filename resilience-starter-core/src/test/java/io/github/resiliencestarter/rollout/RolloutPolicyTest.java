package io.github.resiliencestarter.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.core.InvalidSettingException;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The share a rollout enforces, and that a key's decision depends on the key alone. */
class RolloutPolicyTest {

    @Test
    void twentyPercentOfAThousandDistinctKeysIsEnforcedWithinFiveRoundPoints() {
        RolloutPolicy policy = new RolloutPolicy(EnforcementMode.ENFORCE, 20);

        long enforced = IntStream.range(0, 1000).mapToObj(i -> "order-" + i).filter(policy::enforces).count();
        long random = IntStream.range(0, 1000).mapToObj(i -> UUID.randomUUID().toString())
                .filter(policy::enforces).count();

        assertThat(enforced).isBetween(150L, 250L);
        assertThat(random).isBetween(150L, 250L);
    }

    @Test
    void aKeysDecisionDependsOnTheKeyAloneAndGrowsWithTheShare() {
        RolloutPolicy twenty = new RolloutPolicy(EnforcementMode.ENFORCE, 20);
        RolloutPolicy sameElsewhere = new RolloutPolicy(EnforcementMode.ENFORCE, 20);
        RolloutPolicy fifty = new RolloutPolicy(EnforcementMode.ENFORCE, 50);

        for (int i = 0; i < 1000; i++) {
            String key = "order-" + i;
            // a new String each time: nothing cached on the instance decides
            assertThat(sameElsewhere.enforces(new String(key.toCharArray()))).isEqualTo(twenty.enforces(key));
            // raising the share only adds keys: none enforced at 20 % is observed at 50 %
            if (twenty.enforces(key)) {
                assertThat(fifty.enforces(key)).isTrue();
            }
        }
    }

    @Test
    void observeEnforcesNothingAndTheEndsOfTheShareAreExact() {
        RolloutPolicy observe = new RolloutPolicy(EnforcementMode.OBSERVE, 100);
        RolloutPolicy none = new RolloutPolicy(EnforcementMode.ENFORCE, 0);
        RolloutPolicy all = RolloutPolicy.ENFORCE_ALL;

        assertThat(IntStream.range(0, 1000).mapToObj(i -> "k" + i).filter(observe::enforces)).isEmpty();
        assertThat(IntStream.range(0, 1000).mapToObj(i -> "k" + i).filter(none::enforces)).isEmpty();
        assertThat(IntStream.range(0, 1000).mapToObj(i -> "k" + i).allMatch(all::enforces)).isTrue();
        assertThat(all.enforcesAll()).isTrue();
        assertThat(new RolloutPolicy(EnforcementMode.ENFORCE, 99.99).enforcesAll()).isFalse();
    }

    @Test
    void aShareCoversExactlyItsBuckets() {
        String atTheEdge = keyInBucket(1999);
        String justPast = keyInBucket(2000);
        RolloutPolicy twenty = new RolloutPolicy(EnforcementMode.ENFORCE, 20);

        assertThat(twenty.enforces(atTheEdge)).isTrue();
        assertThat(twenty.enforces(justPast)).isFalse();
        assertThat(new RolloutPolicy(EnforcementMode.ENFORCE, 20.01).enforces(justPast)).isTrue();
        assertThat(new RolloutPolicy(EnforcementMode.OBSERVE, 20).enforces(atTheEdge)).isFalse();
    }

    private static String keyInBucket(int bucket) {
        for (int i = 0; ; i++) {
            if (RolloutBuckets.bucket("edge-" + i) == bucket) {
                return "edge-" + i;
            }
        }
    }

    @Test
    void aShareOutsideZeroToAHundredIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new RolloutPolicy(EnforcementMode.ENFORCE, 101))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("rollout must be between 0 and 100");
        assertThatThrownBy(() -> new RolloutPolicy(EnforcementMode.ENFORCE, Double.NaN))
                .isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> new RolloutPolicy(EnforcementMode.ENFORCE, -1))
                .isInstanceOf(InvalidSettingException.class);
    }

    @Test
    void bucketsSpreadEvenly() {
        int[] tenths = new int[10];
        for (int i = 0; i < 10_000; i++) {
            tenths[RolloutBuckets.bucket("trace-" + i) / 1000]++;
        }
        for (int count : tenths) {
            assertThat(count).isBetween(850, 1150);
        }
    }

    @Test
    void aRequestIsChosenByItsTraceIdAndACallWithoutOneIsDrawnSoTheShareStillHolds() {
        RolloutPolicy thirty = new RolloutPolicy(EnforcementMode.ENFORCE, 30);
        TraceContext traced = TraceContext.empty().withTraceId("4af92c2b9d4fafa0c75329825138e3e0");
        assertThat(thirty.enforces(traced)).as("the trace id's own bucket")
                .isEqualTo(thirty.enforces("4af92c2b9d4fafa0c75329825138e3e0"));

        int enforced = 0;
        for (int i = 0; i < 2_000; i++) {
            enforced += thirty.enforces(TraceContext.empty()) ? 1 : 0;
        }
        // 600 expected; +-100 is about five standard deviations
        assertThat(enforced).isBetween(500, 700);
        assertThat(new RolloutPolicy(EnforcementMode.OBSERVE, 100).enforces(TraceContext.empty())).isFalse();
        assertThat(new RolloutPolicy(EnforcementMode.ENFORCE, 0).enforces(TraceContext.empty())).isFalse();
    }
}
