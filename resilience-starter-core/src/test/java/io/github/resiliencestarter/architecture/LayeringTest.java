package io.github.resiliencestarter.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/** DESIGN §1: the engine is plain Java, adapters depend on it one way, and internals stay inside. */
@AnalyzeClasses(packages = "io.github.resiliencestarter", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    private static final String[] ENGINE = {"io.github.resiliencestarter.core..",
        "io.github.resiliencestarter.context..", "io.github.resiliencestarter.timeout..",
        "io.github.resiliencestarter.retry..", "io.github.resiliencestarter.circuit..",
        "io.github.resiliencestarter.annotation..", "io.github.resiliencestarter.rollout..",
        "io.github.resiliencestarter.chaos..", "io.github.resiliencestarter.messaging..",
        "io.github.resiliencestarter.idempotent.."};

    @ArchTest
    static final ArchRule engineImportsNothingFromSpring = noClasses()
            .that().resideInAnyPackage(ENGINE)
            .and().resideOutsideOfPackages("io.github.resiliencestarter.idempotent.redis..",
                    "io.github.resiliencestarter.idempotent.jdbc..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
            .because("the engine must be usable without Spring (DESIGN §1)");

    @ArchTest
    static final ArchRule engineDoesNotReachIntoAdapters = noClasses()
            .that().resideInAnyPackage(ENGINE)
            .should().dependOnClassesThat().resideInAnyPackage("io.github.resiliencestarter.spring..",
                    "io.github.resiliencestarter.micrometer..")
            .because("adapters depend on the engine, never the other way round");

    @ArchTest
    static final ArchRule internalPackagesAreUsedOnlyByTheirParent = classes()
            .should(useInternalPackagesOnlyFromTheirParent())
            .because("an internal package is an implementation detail of its parent package, not an API");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("io.github.resiliencestarter.(**)")
            .should().beFreeOfCycles()
            // an internal package implements its parent's types and is used only there (rule above)
            .ignoreDependency(DescribedPredicate.alwaysTrue(), JavaClass.Predicates.resideInAPackage("..internal.."))
            .because("a package and its sub-packages depend one way, so each can be read on its own");

    private static ArchCondition<JavaClass> useInternalPackagesOnlyFromTheirParent() {
        return new ArchCondition<>("use an internal package only from its parent package") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String from = origin.getPackageName();
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                    String to = dependency.getTargetClass().getPackageName();
                    int internal = to.indexOf(".internal");
                    if (!to.startsWith("io.github.resiliencestarter.") || internal < 0) {
                        continue;
                    }
                    String owner = to.substring(0, internal);
                    if (!from.equals(owner) && !from.startsWith(owner + ".internal")) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                    }
                }
            }
        };
    }
}
