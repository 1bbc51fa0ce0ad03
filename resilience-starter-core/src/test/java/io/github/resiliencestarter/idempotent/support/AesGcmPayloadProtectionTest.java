package io.github.resiliencestarter.idempotent.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.PayloadBinding;
import io.github.resiliencestarter.idempotent.StoredResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
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

    private static PayloadBinding binding(String key) {
        return new PayloadBinding(key, StoredResponse.VALUE, "fp-1");
    }

    @Test
    void aSealedPayloadHidesItsTextAndOpensOnlyForItsOwnRecord() {
        AesGcmPayloadProtection protection = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1");
        String sealed = protection.seal("{\"password\":\"hunter2\"}", binding("idem:USER_CREATE::u-1"));

        assertThat(sealed).startsWith("aesgcm2:k1:").doesNotContain("hunter2");
        assertThat(protection.seal("{\"password\":\"hunter2\"}", binding("idem:USER_CREATE::u-1")))
                .as("a fresh nonce").isNotEqualTo(sealed);
        assertThat(protection.open(sealed, binding("idem:USER_CREATE::u-1"))).isEqualTo("{\"password\":\"hunter2\"}");
        // copied onto another record, or tampered: refused, never guessed
        assertThatThrownBy(() -> protection.open(sealed, binding("idem:USER_CREATE::u-2")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        String tampered = sealed.substring(0, sealed.length() - 4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
        assertThatThrownBy(() -> protection.open(tampered, binding("idem:USER_CREATE::u-1")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
    }

    @Test
    void aSealedPayloadRelabelledAsAnotherTypeOrMovedToAnotherRequestDoesNotOpen() {
        AesGcmPayloadProtection protection = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1");
        String sealed = protection.seal("\"ok\"", new PayloadBinding("idem:PAY::p-1", StoredResponse.VALUE, "fp-1"));

        assertThatThrownBy(() -> protection.open(sealed, new PayloadBinding("idem:PAY::p-1", "failure", "fp-1")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        assertThatThrownBy(() -> protection.open(sealed,
                new PayloadBinding("idem:PAY::p-1", StoredResponse.VALUE, "fp-2")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
        // the fields are length-prefixed: moving a character from one field to the next is another binding
        assertThatThrownBy(() -> protection.open(sealed, new PayloadBinding("idem:PAY::p-", "1" + StoredResponse.VALUE,
                "fp-1"))).isInstanceOf(IdempotencyRecordCorruptedException.class);
    }

    @Test
    void onceKeysAreConfiguredAnUnsealedOrLegacyPayloadIsRefusedUnlessTheMigrationWindowIsOpen() throws Exception {
        AesGcmPayloadProtection strict = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1");
        AesGcmPayloadProtection migrating = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1", true);
        String legacy = legacySeal("\"first\"", "idem:USER_CREATE::u-1");

        // planted by whoever can write to the store, or written before protection: not read
        assertThatThrownBy(() -> strict.open("\"forged\"", binding("idem:USER_CREATE::u-1")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class).hasMessageContaining("accept-legacy");
        assertThatThrownBy(() -> strict.open(legacy, binding("idem:USER_CREATE::u-1")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class).hasMessageContaining("earlier version");
        // for one TTL after switching protection on or upgrading
        assertThat(migrating.open("\"plain\"", binding("idem:USER_CREATE::u-1"))).isEqualTo("\"plain\"");
        assertThat(migrating.open(legacy, binding("idem:USER_CREATE::u-1"))).isEqualTo("\"first\"");
        assertThatThrownBy(() -> migrating.open(legacy, binding("idem:USER_CREATE::u-2")))
                .isInstanceOf(IdempotencyRecordCorruptedException.class);
    }

    /** A payload as the earlier version sealed it: {@code aesgcm:}, the record key alone as associated data. */
    private static String legacySeal(String payload, String storedKey) throws Exception {
        byte[] nonce = new byte[12];
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(OLD, "AES"), new GCMParameterSpec(128, nonce));
        cipher.updateAAD(storedKey.getBytes(StandardCharsets.UTF_8));
        byte[] sealed = cipher.doFinal(payload.getBytes(StandardCharsets.UTF_8));
        byte[] stored = ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array();
        return AesGcmPayloadProtection.LEGACY_PREFIX + "k1:" + Base64.getEncoder().encodeToString(stored);
    }

    @Test
    void aKeyIsRotatedByAddingTheNewOneAndMakingItActive() {
        String sealedWithOld = new AesGcmPayloadProtection(Map.of("k1", OLD), "k1").seal("first", binding("key"));
        AesGcmPayloadProtection rotated = new AesGcmPayloadProtection(Map.of("k1", OLD, "k2", NEW), "k2");

        assertThat(rotated.open(sealedWithOld, binding("key"))).isEqualTo("first");
        assertThat(rotated.seal("second", binding("key"))).startsWith("aesgcm2:k2:");
        // the old key removed before its records expired: they do not open, nothing is guessed
        AesGcmPayloadProtection withoutOld = new AesGcmPayloadProtection(Map.of("k2", NEW), "k2");
        assertThatThrownBy(() -> withoutOld.open(sealedWithOld, binding("key")))
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
