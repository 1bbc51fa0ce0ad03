package io.github.resiliencestarter.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenedTest {

    @Test
    void closesEverythingLastFirstEvenWhenClosingOneFails() {
        List<String> closed = new ArrayList<>();
        Opened opened = new Opened();
        opened.add(() -> closed.add("servers"));
        opened.add(() -> {
            closed.add("client");
            throw new IllegalStateException("shutdown timed out");
        });
        opened.add(() -> {
            closed.add("store");
            throw new IllegalStateException("store refused to close");
        });

        assertThatThrownBy(opened::close).hasMessage("store refused to close")
                .satisfies(failure -> assertThat(failure.getSuppressed()).extracting(Throwable::getMessage)
                        .containsExactly("shutdown timed out"));
        assertThat(closed).containsExactly("store", "client", "servers");
    }
}
