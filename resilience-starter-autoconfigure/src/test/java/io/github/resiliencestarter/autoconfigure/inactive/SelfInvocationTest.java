package io.github.resiliencestarter.autoconfigure.inactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.timeout.TimeoutAutoConfiguration;
import io.github.resiliencestarter.spring.aop.AnnotatedMethodValidator;
import io.github.resiliencestarter.spring.aop.InactiveAnnotation;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * {@code this.slow()} on an annotated method of the same bean bypasses the proxy: tried in a
 * user's application, the call took 600 ms past a 250 ms {@code @Timeout} without a word. The
 * start now names both methods, once per caller.
 */
@ExtendWith(OutputCaptureExtension.class)
class SelfInvocationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    TimeoutAutoConfiguration.class, RetryAutoConfiguration.class))
            .withBean(Shipments.class);

    /** A bean that calls its own annotated method, which its proxy never sees. */
    public static class Shipments {

        public String ship() {
            return "shipped in " + this.slow();
        }

        public Supplier<String> later() {
            return () -> slow();
        }

        @Timeout("250ms")
        public String slow() {
            return "time";
        }

        /** A call on another object of another class: not reported. */
        public String viaOther(StringBuilder other) {
            return other.toString();
        }
    }

    @Test
    void aCallOfTheBeansOwnAnnotatedMethodIsReportedNamingTheCallerAndTheCallee(CapturedOutput output) {
        runner.run(context -> {
            List<InactiveAnnotation> inactive = context.getBean(AnnotatedMethodValidator.class).inactive();
            String slow = Shipments.class.getName() + ".slow()";
            assertThat(inactive).extracting(InactiveAnnotation::method).containsOnly(slow);
            assertThat(inactive).extracting(InactiveAnnotation::reason).containsExactlyInAnyOrder(
                    "called from ship() of the same class, a call the proxy never sees; other beans' calls are governed",
                    "called from a lambda in later() of the same class, a call the proxy never sees; other beans' calls "
                            + "are governed");
            assertThat(output.getOut()).contains("@Timeout on " + slow + " has no effect: called from ship()");
            // the annotation itself still works for callers that go through the proxy
            assertThat(context.getBean(Shipments.class).slow()).isEqualTo("time");
        });
    }
}
