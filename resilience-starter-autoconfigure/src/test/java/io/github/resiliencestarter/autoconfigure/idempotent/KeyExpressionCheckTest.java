package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyKeyException;
import io.github.resiliencestarter.idempotent.IdempotencyKeyExpressionException;
import io.github.resiliencestarter.spring.aop.InvalidDeclarationException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * A key expression that is wrong in the code fails the start, naming the method; what can only
 * fail on a request is a server fault (500) unless the client's data lacks the value (400).
 */
class KeyExpressionCheckTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(ResilienceAutoConfiguration.class, IdempotencyAutoConfiguration.class,
                    RetryAutoConfiguration.class));

    /** What a client sends. */
    record Order(String orderNo, Customer customer) {
    }

    /** Part of it, possibly absent. */
    record Customer(String id) {
    }

    /** A classic bean with a getter. */
    static class Payment {

        public String getPaymentNo() {
            return "P-1";
        }
    }

    static class WrongParameterName {

        @Idempotent(key = "#req.orderNo")
        public String create(Order request) {
            return "created";
        }
    }

    static class MissingProperty {

        @Idempotent(key = "#request.customerId")
        public String create(Order request) {
            return "created";
        }
    }

    static class MapReadAsBean {

        @Idempotent(key = "#body.id")
        public String create(Map<String, Object> body) {
            return "created";
        }
    }

    static class MissingFingerprintProperty {

        @Idempotent(key = "#request.orderNo", fingerprint = "#request.total")
        public String create(Order request) {
            return "created";
        }
    }

    static class ValidForms {

        @Idempotent(key = "#request.orderNo + '-' + #p0.customer?.id")
        public String record(Order request) {
            return "record";
        }

        @Idempotent(key = "#payment.paymentNo", fingerprint = "#a0")
        public String bean(Payment payment) {
            return "bean";
        }

        @Idempotent(key = "#body['id']")
        public String map(Map<String, Object> body) {
            return "map";
        }
    }

    static class FailsOnRequests {

        int executions;

        @Idempotent(key = "#request.orderNo.substring(50)")
        public String brokenExpression(Order request) {
            executions++;
            return "never";
        }

        @Idempotent(key = "#request.customer.id")
        public String nestedKey(Order request) {
            executions++;
            return "never";
        }
    }

    @Test
    void aKeyNamingNoParameterFailsTheStartNamingMethodAndParameters() {
        runner.withBean(WrongParameterName.class).run(context -> {
            assertThat(context).hasFailed();
            Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
            assertThat(cause).isInstanceOf(InvalidDeclarationException.class);
            InvalidDeclarationException invalid = (InvalidDeclarationException) cause;
            assertThat(invalid.description()).contains("@Idempotent(key = \"#req.orderNo\") on "
                    + WrongParameterName.class.getName() + ".create(", "names #req, which is not a parameter");
            assertThat(invalid.action()).contains("[request]");
        });
    }

    @Test
    void aKeyReadingAPropertyTheParameterTypeLacksFailsTheStart() {
        runner.withBean(MissingProperty.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasRootCauseInstanceOf(InvalidDeclarationException.class)
                .hasStackTraceContaining("reads customerId of #request, but its type Order has no such property"));
        runner.withBean(MapReadAsBean.class).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("reads id of #body").hasStackTraceContaining("#body['id']"));
        runner.withBean(MissingFingerprintProperty.class).run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("@Idempotent(fingerprint = \"#request.total\")"));
    }

    @Test
    void recordAccessorsGettersMapsAndIndexedParametersPassTheCheck() {
        runner.withBean(ValidForms.class).run(context -> {
            assertThat(context).hasNotFailed();
            ValidForms bean = context.getBean(ValidForms.class);
            assertThat(bean.record(new Order("O-1", null))).isEqualTo("record");
            assertThat(bean.bean(new Payment())).isEqualTo("bean");
            assertThat(bean.map(Map.of("id", "M-1"))).isEqualTo("map");
        });
    }

    @Test
    void anExpressionFailingOnARequestIsAServerFaultAndRunsNothing() {
        runner.withBean(FailsOnRequests.class).run(context -> {
            FailsOnRequests bean = context.getBean(FailsOnRequests.class);
            assertThatThrownBy(() -> bean.brokenExpression(new Order("O-2", null)))
                    .isInstanceOf(IdempotencyKeyExpressionException.class);
            assertThat(bean.executions).isZero();
        });
    }

    @Test
    void aValueMissingFromTheClientsDataIsTheClientsFault() {
        runner.withBean(FailsOnRequests.class).run(context -> {
            FailsOnRequests bean = context.getBean(FailsOnRequests.class);
            assertThatThrownBy(() -> bean.nestedKey(new Order("O-3", null)))
                    .isInstanceOf(IdempotencyKeyException.class)
                    .hasMessageNotContaining(Order.class.getName());
            assertThatThrownBy(() -> bean.nestedKey(new Order("O-4", new Customer(null))))
                    .isInstanceOf(IdempotencyKeyException.class);
            assertThat(bean.executions).isZero();
        });
    }
}
