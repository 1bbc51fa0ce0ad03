package io.github.resiliencestarter.idempotent.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DuplicateShareTest {

    @Test
    void aNewOperationInsertsFirst() {
        assertThat(new DuplicateShare().readFirst()).isFalse();
    }

    @Test
    void claimsThatMostlyFindARowTurnToReadingFirstAndBackWhenNewKeysDominate() {
        DuplicateShare share = new DuplicateShare();
        for (int i = 0; i < DuplicateShare.SPAN; i++) {
            share.record(true);
        }
        assertThat(share.readFirst()).isTrue();
        for (int i = 0; i < DuplicateShare.SPAN; i++) {
            share.record(false);
        }
        assertThat(share.readFirst()).isFalse();
    }

    @Test
    void aFewDuplicatesAmongNewKeysKeepTheInsertFirst() {
        DuplicateShare share = new DuplicateShare();
        for (int i = 0; i < 1_000; i++) {
            share.record(i % 4 == 0); // a quarter of the claims find a row
        }
        assertThat(share.readFirst()).isFalse();
    }
}
