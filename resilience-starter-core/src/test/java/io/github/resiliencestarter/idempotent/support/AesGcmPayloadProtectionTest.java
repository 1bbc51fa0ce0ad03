package io.github.resiliencestarter.idempotent.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stored responses sealed at rest: bound to their record, rotated by key id, tampering refused. */
class AesGcmPayloadProtectionTest {

    private static final byte[] OLD = new byte[32];

    private static final byte[] NEW = new byte[16];

    static {
        for (int i = 0; i < OLD.length; i++) {
            OLD[i] = (byte) i;
        }
        for (int i = 0; i < NEW.length; i++) {
            NEW[i] = (byte) (100 + i);
        }
    }

    @Test
    void aSealedPayloadHidesItsTextAndOpensOnlyForItsOwnRecord() {
        AesGcmPayloadProtection protection = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1");
        String sealed = protection.seal("{\"password\":\"hunter2\"}", "idem:USER_CREATE::u-1");

        assertThat(sealed).startsWith("aesgcm:k1:").doesNotContain("hunter2");
        assertThat(protection.seal("{\"password\":\"hunter2\"}", "idem:USER_CREATE::u-1")).as("a fresh nonce")
                .isNotEqualTo(sealed);
        assertThat(protection.open(sealed, "idem:USER_CREATE::u-1")).isEqualTo("{\"password\":\"hunter2\"}");
        // copied onto another record, or tampered: refused, never guessed
        assertThatThrownBy(() -> protection.open(sealed, "idem:USER_CREATE::u-2"))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        String tampered = sealed.substring(0, sealed.length() - 4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertThatThrownBy(() -> protection.open(tampered, "idem:USER_CREATE::u-1"))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        // written before protection was on
        assertThat(protection.open("\"plain\"", "idem:USER_CREATE::u-1")).isEqualTo("\"plain\"");
    }

    @Test
    void aKeyIsRotatedByAddingTheNewOneAndMakingItActive() {
        String sealedWithOld = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1").seal("first", "key");
        AesGcmPayloadProtection rotated = new AesGcmPayloadProtection(Map.of("k1", OLD, "k2", NEW), "k2");

        assertThat(rotated.open(sealedWithOld, "key")).isEqualTo("first");
        assertThat(rotated.seal("second", "key")).startsWith("aesgcm:k2:");
        // the old key removed before its records expired: they do not open, nothing is guessed
        AesGcmPayloadProtection withoutOld = new AesGcmPayloadProtection(Map.of("k2", NEW), "k2");
        assertThatThrownBy(() -> withoutOld.open(sealedWithOld, "key"))
                .isInstanceOf(IdempotencyRecordCorruptedException.class).hasMessageContaining("not configured");
    }

    @Test
    void badKeysAreRefusedWhenTheProtectionIsMade() {
        assertThatThrownBy(() -> new AesGcmPayloadProtection(Map.of("k1", new byte[10]), "k1"))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("16, 24 or 32 bytes");
        assertThatThrownBy(() -> new AesGcmPayloadProtection(Map.of("k1", OLD), "k9"))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("must name one of the keys");
        assertThatThrownBy(() -> new AesGcmPayloadProtection(Map.of("k:1", OLD), "k:1"))
                .isInstanceOf(InvalidSettingException.class);
    }
}
