package io.github.resiliencestarter.test.archunit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.github.resiliencestarter.test.archunit.fixture.clean.GuardedOrderController;
import io.github.resiliencestarter.test.archunit.fixture.violations.FinalTimeoutService;
import io.github.resiliencestarter.test.archunit.fixture.violations.NestedTimeoutController;
import io.github.resiliencestarter.test.archunit.fixture.violations.PrivateTimeout;
import io.github.resiliencestarter.test.archunit.fixture.violations.UnguardedOrderController;
import io.github.resiliencestarter.test.archunit.fixture.violations.UnreachableAnnotations;
import io.github.resiliencestarter.test.archunit.fixture.violations.UnsafeRetryService;
import io.github.resiliencestarter.test.archunit.fixture.violations.UntimedClientsConfiguration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each rule over a fixture application with one violation of it per class (the rule must name
 * every violating member, and no member of another rule's fixture), and over an application that
 * keeps them all, including the cases each rule must accept.
 */
class ResilienceRulesTest {

    private static final JavaClasses VIOLATIONS = new ClassFileImporter()
            .importPackages(UnguardedOrderController.class.getPackageName());

    private static final JavaClasses CLEAN = new ClassFileImporter()
            .importPackages(GuardedOrderController.class.getPackageName());

    private static List<String> violations(ArchRule rule) {
        return rule.evaluate(VIOLATIONS).getFailureReport().getDetails();
    }

    @Test
    void O5_aStateChangingHandlerWithoutIdempotentIsNamedWithTheFix() {
        List<String> found = violations(ResilienceRules.STATE_CHANGING_HANDLERS_ARE_IDEMPOTENT);

        assertThat(found).hasSize(2);
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains(UnguardedOrderController.class.getName() + ".create(String)")
                .contains("[POST]").contains("@Idempotent(key = ...)").contains("@IdempotencyExempt(\"why\")"));
        assertThat(found).anySatisfy(line -> assertThat(line).contains(".submitOrder(String)")
                .contains("any HTTP method, named like a write"));
    }

    @Test
    void O5_aRetryTheSafetyGateWouldRefuseIsNamedWithTheGatesOwnMessage() {
        List<String> found = violations(ResilienceRules.RETRIES_PASS_THE_SAFETY_GATE);

        assertThat(found).hasSize(2);
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains("@Retry on " + UnsafeRetryService.class.getName() + ".charge(String, long) may repeat a "
                        + "non-idempotent operation")
                .contains("add @Idempotent"));
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains("@Retry(hedgeDelay) on " + UnsafeRetryService.class.getName() + ".overwrite(String, long)")
                .contains("concurrentSafe = true"));
    }

    @Test
    void O5_anHttpClientBeanWithoutAConnectAndAReadTimeoutIsNamed() {
        List<String> found = violations(ResilienceRules.OUTBOUND_CLIENTS_HAVE_TIMEOUTS);

        String owner = UntimedClientsConfiguration.class.getName();
        assertThat(found).hasSize(3);
        assertThat(found).anySatisfy(line -> assertThat(line).contains(owner + ".inventoryClient() builds a "
                + "RestClient bean with neither a connect timeout nor a read timeout").contains("withTimeouts"));
        assertThat(found).anySatisfy(line -> assertThat(line).contains(owner + ".paymentsTemplate() builds a "
                + "RestTemplate bean without a read timeout"));
        assertThat(found).anySatisfy(line -> assertThat(line).contains(owner + ".shippingClient() builds a "
                + "WebClient bean with neither"));
    }

    @Test
    void O5_anAnnotationTheProxyNeverSeesIsNamedWithWhy() {
        List<String> found = violations(ResilienceRules.ANNOTATIONS_ARE_REACHABLE_THROUGH_THE_PROXY);

        assertThat(found).hasSize(5);
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains(UnreachableAnnotations.class.getName() + ".quote(String) is annotated but the method is "
                        + "final"));
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains(UnreachableAnnotations.class.getName() + ".load(String) is called from refresh() of its "
                        + "own class"));
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains(PrivateTimeout.class.getName() + ".cached(String) is annotated but the method is private"));
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains(PrivateTimeout.class.getName() + ".normalized(String) is annotated but the method is "
                        + "static"));
        assertThat(found).anySatisfy(line -> assertThat(line)
                .contains(FinalTimeoutService.class.getName() + " is final"));
    }

    @Test
    void T1_anInnerTimeoutLongerThanItsCallersIsNamedThroughAServiceAndAnInterface() {
        List<String> found = violations(ResilienceRules.INNER_TIMEOUTS_FIT_THE_OUTER_ONES);

        assertThat(found).singleElement().satisfies(line -> assertThat(line)
                .contains(NestedTimeoutController.CatalogRepository.class.getName() + ".scan() has @Timeout(5s)")
                .contains("longer than the @Timeout(${catalog.timeout:1s}) = PT1S of "
                        + NestedTimeoutController.class.getName() + ".catalog()")
                .contains("inheritDeadline = false it outlives the caller"));
    }

    @Test
    void O5_anApplicationThatKeepsTheRulesPassesThemAll() {
        assertThatCode(() -> ResilienceRules.ALL.check(CLEAN)).doesNotThrowAnyException();
    }
}
