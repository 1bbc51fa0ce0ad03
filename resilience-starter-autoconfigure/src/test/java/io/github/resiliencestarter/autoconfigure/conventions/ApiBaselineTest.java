package io.github.resiliencestarter.autoconfigure.conventions;

import io.github.resiliencestarter.testsupport.ApiBaseline;
import org.junit.jupiter.api.Test;

/**
 * The auto-configuration's public API against its baseline (src/test/api): its configuration and
 * properties classes, which applications name in exclusions, ordering and their own beans.
 */
class ApiBaselineTest {

    @Test
    void thePublicApiIsTheBaselines() throws Exception {
        ApiBaseline.check("resilience-starter-autoconfigure");
    }
}
