package io.github.resiliencestarter.autoconfigure.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.http.OutboundHttpAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.idempotent.IdempotencyAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.testsupport.BootLine;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The bridge of the Boot line at hand (docs/internals/decisions.md) hands the propagation interceptors to
 * Boot's client builders and the store's health to Actuator; the other line's bridge stays off.
 * All auto-configurations are listed, as Boot's import file lists them, so both bridges are asked.
 */
class BootLineBridgeTest {

    private static final String BOOT3_BRIDGE = "io.github.resiliencestarter.autoconfigure.boot3.";

    private static final String BOOT4_BRIDGE = "io.github.resiliencestarter.autoconfigure.boot4.";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class, TimeoutAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, OutboundHttpAutoConfiguration.class))
            .withConfiguration(AutoConfigurations.of(bridgesOfBothLinesPresentOnThisOne()));

    /** Both lines' bridges: the other line's classes load (they are in the jar) but must not match. */
    private static Class<?>[] bridgesOfBothLinesPresentOnThisOne() {
        return java.util.stream.Stream.of(BOOT3_BRIDGE, BOOT4_BRIDGE)
                .flatMap(bridge -> java.util.stream.Stream.of(bridge + "Boot" + bridge.charAt(bridge.length() - 2)
                        + "HttpClientsAutoConfiguration", bridge + "Boot" + bridge.charAt(bridge.length() - 2)
                        + "HealthAutoConfiguration"))
                .map(BootLineBridgeTest::load).toArray(Class<?>[]::new);
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, BootLineBridgeTest.class.getClassLoader());
        } catch (ClassNotFoundException ex) {
            throw new IllegalStateException(name + " is missing from the starter", ex);
        }
    }

    @Test
    void theCustomizersOfThisLineReachBootsClientBuilders() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasBean("traceContextRestTemplateCustomizer")
                    .hasBean("traceContextRestClientCustomizer").hasBean("traceContextWebClientCustomizer");
            String bridge = BootLine.current() == BootLine.BOOT_3 ? BOOT3_BRIDGE : BOOT4_BRIDGE;
            assertThat(context.getBeanDefinitionNames()).anyMatch(name -> name.startsWith(bridge))
                    .noneMatch(name -> name.startsWith(BootLine.current() == BootLine.BOOT_3 ? BOOT4_BRIDGE
                            : BOOT3_BRIDGE));
        });
    }

    @Test
    void withoutWebFluxTheWebClientCustomizerStaysOffAndTheRestStarts() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.web.reactive")).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasBean("traceContextRestClientCustomizer")
                    .doesNotHaveBean("traceContextWebClientCustomizer");
        });
    }

    @Test
    void withoutBootsRestClientSupportTheWebClientCustomizerStillComes() {
        // a WebFlux application on Boot 4 has spring-boot-webclient but not spring-boot-restclient
        String restClientSupport = BootLine.current() == BootLine.BOOT_3 ? "org.springframework.boot.web.client"
                : "org.springframework.boot.restclient";
        runner.withClassLoader(new FilteredClassLoader(restClientSupport)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasBean("traceContextWebClientCustomizer")
                    .doesNotHaveBean("traceContextRestClientCustomizer");
        });
    }

    @Test
    void theOtherLinesTypesAreAbsentAsInAUsersApplication() {
        String other = BootLine.current() == BootLine.BOOT_3
                ? "org.springframework.boot.restclient.RestClientCustomizer"
                : "org.springframework.boot.web.client.RestClientCustomizer";
        assertThat(isPresent(other)).as(other + " on the classpath of this line").isFalse();
    }

    @Test
    void aUserCustomizerOfTheSameNameReplacesOurs() {
        runner.withBean("traceContextRestClientCustomizer", String.class, () -> "mine").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("traceContextRestClientCustomizer")).isEqualTo("mine");
        });
    }

    private static boolean isPresent(String type) {
        try {
            Class.forName(type, false, BootLineBridgeTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException ex) {
            return false;
        }
    }
}
