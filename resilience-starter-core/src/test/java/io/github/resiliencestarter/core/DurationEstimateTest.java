package io.github.resiliencestarter.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class DurationEstimateTest {

    @Test
    void noEstimateUntilEnoughSamplesThenThePercentileOfThem() {
        DurationEstimate p90 = DurationEstimate.percentile(90, 100);
        for (int i = 1; i <= 99; i++) {
            p90.record(i * 1_000L);
        }
        assertThat(p90.estimateNanos()).isEqualTo(-1);
        p90.record(100 * 1_000L);
        // 1..100 µs: the 90th of 100 is 90 µs
        assertThat(p90.estimateNanos()).isEqualTo(90_000L);
    }

    @Test
    void theSelectionFindsWhatSortingWouldOnRandomAndRepetitiveWindows() {
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 2_000; round++) {
            int n = 1 + random.nextInt(DurationEstimate.WINDOW);
            int distinct = 1 + random.nextInt(round % 2 == 0 ? 3 : 1_000_000);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = 1 + random.nextInt(distinct);
            }
            long[] sorted = values.clone();
            java.util.Arrays.sort(sorted);
            int k = random.nextInt(n);
            assertThat(DurationEstimate.select(values, n, k)).as("round %d", round).isEqualTo(sorted[k]);
        }
    }

    @Test
    void theMedianIsThereFromTheFirstSample() {
        DurationEstimate median = DurationEstimate.median();
        assertThat(median.estimateNanos()).isEqualTo(-1);
        median.record(1_200_000_000L);
        assertThat(median.estimateNanos()).isEqualTo(1_200_000_000L);
        median.record(1_200_000_000L);
        median.record(15_000_000L);
        assertThat(median.estimateNanos()).isEqualTo(1_200_000_000L);
    }

    @Test
    void onlyTheRecentWindowCountsSoTheEstimateFollowsAChange() {
        DurationEstimate p95 = DurationEstimate.percentile(95, 50);
        for (int i = 0; i < 1_000; i++) {
            p95.record(50_000_000L);
        }
        assertThat(p95.estimateNanos()).isEqualTo(50_000_000L);
        for (int i = 0; i < DurationEstimate.WINDOW; i++) {
            p95.record(2_000_000L);
        }
        assertThat(p95.estimateNanos()).isEqualTo(2_000_000L);
    }

    @Test
    void concurrentRecordingLosesNoCountAndGivesAnEstimateFromTheRecordedValues() throws InterruptedException {
        DurationEstimate p50 = DurationEstimate.percentile(50, 10);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            long value = (t + 1) * 1_000L;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException ex) {
                    return;
                }
                for (int i = 0; i < 10_000; i++) {
                    p50.record(value);
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(p50.samples()).isEqualTo(40_000);
        assertThat(p50.estimateNanos()).isIn(1_000L, 2_000L, 3_000L, 4_000L);
    }

    @Test
    void aPercentileOutsideZeroToHundredIsRefused() {
        assertThatThrownBy(() -> DurationEstimate.percentile(100, 10)).isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> DurationEstimate.percentile(0, 10)).isInstanceOf(InvalidSettingException.class);
        assertThatThrownBy(() -> DurationEstimate.percentile(95, 0)).isInstanceOf(InvalidSettingException.class);
    }
}
