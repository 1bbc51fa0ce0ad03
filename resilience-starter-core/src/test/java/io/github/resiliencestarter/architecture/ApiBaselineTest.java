package io.github.resiliencestarter.architecture;

import io.github.resiliencestarter.testsupport.ApiBaseline;
import org.junit.jupiter.api.Test;

/** The engine's public API against its baseline (src/test/api): every change to it is deliberate. */
class ApiBaselineTest {

    @Test
    void thePublicApiIsTheBaselines() throws Exception {
        ApiBaseline.check("resilience-starter-core");
    }
}
