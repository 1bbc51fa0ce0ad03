package io.github.resiliencestarter.sample;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.github.resiliencestarter.test.archunit.ResilienceRules;
import org.junit.jupiter.api.Test;

/** The sample keeps the starter's build-time rules (docs/static-rules.md), as a user's build would check. */
class SampleResilienceRulesTest {

    @Test
    void O5_theSampleKeepsEveryStaticRule() {
        ResilienceRules.ALL.check(new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages(SampleApplication.class.getPackageName()));
    }
}
