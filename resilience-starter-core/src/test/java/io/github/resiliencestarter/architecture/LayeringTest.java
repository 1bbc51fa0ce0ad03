package io.github.resiliencestarter.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** DESIGN §1: the engine is plain Java; only adapter packages may touch Spring. */
@AnalyzeClasses(packages = "io.github.resiliencestarter", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    @ArchTest
    static final ArchRule engineImportsNothingFromSpring = noClasses()
            .that().resideInAnyPackage("io.github.resiliencestarter.core..", "io.github.resiliencestarter.context..",
                    "io.github.resiliencestarter.timeout..", "io.github.resiliencestarter.retry..",
                    "io.github.resiliencestarter.annotation..", "io.github.resiliencestarter.idempotent..")
            .and().resideOutsideOfPackages("io.github.resiliencestarter.idempotent.redis..",
                    "io.github.resiliencestarter.idempotent.jdbc..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
            .because("the engine must be usable without Spring (DESIGN §1)");

    @ArchTest
    static final ArchRule engineDoesNotReachIntoAdapters = noClasses()
            .that().resideInAnyPackage("io.github.resiliencestarter.core..", "io.github.resiliencestarter.context..",
                    "io.github.resiliencestarter.timeout..", "io.github.resiliencestarter.retry..")
            .should().dependOnClassesThat().resideInAnyPackage("io.github.resiliencestarter.spring..")
            .because("adapters depend on the engine, never the other way round");
}
