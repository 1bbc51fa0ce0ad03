package io.github.resiliencestarter.retry;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.retry.backoff.ExponentialBackOff;
import io.github.resiliencestarter.retry.backoff.FixedBackOff;
import io.github.resiliencestarter.retry.backoff.Jitters;
import io.github.resiliencestarter.retry.backoff.UniformRandomBackOff;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackOffAndJitterTest {

    private static final long MS = 1_000_000L;

    private final SplittableRandom random = new SplittableRandom(42);

    @Test
    void exponentialGrowsByTheMultiplierUpToTheCap() {
        ExponentialBackOff backOff = ExponentialBackOff.ofDefaults();
        assertThat(backOff.delayNanos(1, random)).isEqualTo(100 * MS);
        assertThat(backOff.delayNanos(2, random)).isEqualTo(200 * MS);
        assertThat(backOff.delayNanos(4, random)).isEqualTo(800 * MS);
        assertThat(backOff.delayNanos(5, random)).isEqualTo(1000 * MS);
        assertThat(backOff.delayNanos(60, random)).isEqualTo(1000 * MS);
    }

    @Test
    void R4_eachJitterStaysWithinItsDocumentedBoundsOverTenThousandDraws() {
        ExponentialBackOff backOff = ExponentialBackOff.ofDefaults();
        UniformRandomBackOff uniform = new UniformRandomBackOff(Duration.ofMillis(50), Duration.ofMillis(150));
        long previous = 0;
        for (int i = 0; i < 10_000; i++) {
            int retry = 1 + i % 6;
            long base = backOff.delayNanos(retry, random);
            assertThat(Jitters.none().apply(base, 0, backOff, random)).isEqualTo(base);
            assertThat(Jitters.full().apply(base, 0, backOff, random)).isBetween(0L, base);
            assertThat(Jitters.equal().apply(base, 0, backOff, random)).isBetween(base / 2, base);
            long decorrelated = Jitters.decorrelated().apply(base, previous, backOff, random);
            assertThat(decorrelated).isBetween(backOff.initialNanos(), Math.min(backOff.maxNanos(),
                    Math.max(backOff.initialNanos(), previous * 3)));
            previous = decorrelated;
            assertThat(Jitters.proportional(0.2).apply(base, 0, backOff, random))
                    .isBetween(base - base / 5, base + base / 5);
            assertThat(uniform.delayNanos(retry, random)).isBetween(50 * MS, 150 * MS);
        }
    }

    @Test
    void R4_successiveAttemptsAreNotInLockstepAcrossAHundredClients() {
        RetryConfig policy = RetryConfig.ofDefaults();
        for (int retry = 1; retry <= 2; retry++) {
            Set<Long> distinctMillis = new HashSet<>();
            for (int client = 0; client < 100; client++) {
                long base = policy.backOff().delayNanos(retry, random);
                distinctMillis.add(policy.jitter().apply(base, 0, policy.backOff(), random) / MS);
            }
            // with lockstep all 100 would share one value; full jitter spreads them over 100-200 ms
            assertThat(distinctMillis.size()).as("distinct delays before retry %d", retry).isGreaterThan(50);
        }
    }

    @Test
    void fixedIsFixed() {
        FixedBackOff backOff = new FixedBackOff(Duration.ofMillis(30));
        assertThat(backOff.delayNanos(1, random)).isEqualTo(backOff.delayNanos(7, random)).isEqualTo(30 * MS);
    }

    @Test
    void retryAfterAcceptsSecondsAndHttpDates() {
        long now = Instant.parse("2015-10-21T07:27:00Z").toEpochMilli();
        TimeSource clock = new TimeSource() {
            @Override
            public long nanoTime() {
                return 0;
            }

            @Override
            public long epochMillis() {
                return now;
            }
        };
        assertThat(RetryAfter.parse("120", clock)).isEqualTo(Duration.ofSeconds(120));
        // every digit from 0 to 9, and up to nine of them; a tenth makes it no number of seconds
        assertThat(RetryAfter.parse("0", clock)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse("9", clock)).isEqualTo(Duration.ofSeconds(9));
        assertThat(RetryAfter.parse("999999999", clock)).isEqualTo(Duration.ofSeconds(999_999_999));
        assertThat(RetryAfter.parse("1000000000", clock)).isNull();
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", clock)).isEqualTo(Duration.ofSeconds(60));
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", clock)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.parse("soon", clock)).isNull();
        assertThat(RetryAfter.parse("-1", clock)).isNull();
        assertThat(RetryAfter.parse(null, clock)).isNull();
        // the two obsolete forms RFC 9110 requires a recipient to accept, for the same instant
        assertThat(RetryAfter.parse("Wednesday, 21-Oct-15 07:28:00 GMT", clock)).isEqualTo(Duration.ofSeconds(60));
        assertThat(RetryAfter.parse("Wed Oct 21 07:28:00 2015", clock)).isEqualTo(Duration.ofSeconds(60));
        assertThat(RetryAfter.parse("Wed Oct  7 07:28:00 2015", clock)).isEqualTo(Duration.ZERO);
        // a two-digit year more than 50 years ahead is the past century's: 2064 yes, 2066 is 1966
        assertThat(RetryAfter.parse("Tuesday, 21-Oct-64 07:27:00 GMT", clock)).isPositive();
        assertThat(RetryAfter.parse("Friday, 21-Oct-66 07:27:00 GMT", clock)).isEqualTo(Duration.ZERO);
        // parsed as asked, however far: the retry policy caps the wait, not the parser
        assertThat(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", clock)).isGreaterThan(Duration.ofDays(365 * 7000L));
    }
}
