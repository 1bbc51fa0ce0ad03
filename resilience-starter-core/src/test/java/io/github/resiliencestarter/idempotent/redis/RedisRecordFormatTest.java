package io.github.resiliencestarter.idempotent.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.StoredResponse;
import org.junit.jupiter.api.Test;

/** The record text the Lua scripts write, read back on the Java side. */
class RedisRecordFormatTest {

    @Test
    void readsAnInProgressRecord() {
        IdempotencyRecord record = RedisRecordFormat.parse("k", "P\nowner-1\n2000\n1000\nab12\norders.create");

        // it lives as long as its lease
        assertThat(record).isEqualTo(new IdempotencyRecord("k", "orders.create", "ab12", IdempotencyStatus.IN_PROGRESS,
                "owner-1", 2000, 2000, null, 1000));
    }

    @Test
    void readsACompletedRecordWhoseResponseHasLineBreaks() {
        IdempotencyRecord record = RedisRecordFormat.parse("k", "C\n9000\nvalue\n1\n1000\nab12\nop\n{\n\"a\":1\n}\n");

        assertThat(record.status()).isEqualTo(IdempotencyStatus.COMPLETED);
        assertThat(record.expiresAt()).isEqualTo(9000);
        assertThat(record.createdAt()).isEqualTo(1000);
        assertThat(record.response()).isEqualTo(new StoredResponse("value", "{\n\"a\":1\n}\n"));
    }

    @Test
    void escapedNamesComeBackUnchanged() {
        String name = "a\\b\nc\\n";
        String text = "P\no\n2\n" + RedisRecordFormat.claimLines(1, "fp", name);

        assertThat(text.lines()).hasSize(6);
        assertThat(RedisRecordFormat.parse("k", text).name()).isEqualTo(name);
    }

    @Test
    void textThatIsNoRecordIsReportedCorrupted() {
        assertThatThrownBy(() -> RedisRecordFormat.parse("k", "garbage")).isInstanceOf(IdempotencyRecordCorruptedException.class);
        assertThatThrownBy(() -> RedisRecordFormat.parse("k", "C\n9000\nvalue"))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        assertThatThrownBy(() -> RedisRecordFormat.parse("k", "P\no\nsoon\n3\nfp\nop"))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
    }
}
