package io.github.resiliencestarter.spring.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchRuntimeException;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpression;

class KeyExpressionsTest {

    public record Customer(String id) {
    }

    public record Order(String orderNo, Customer customer) {
    }

    @SuppressWarnings("unused")
    void create(Order request) {
    }

    private final Method create = method();

    @Test
    void aPropertyPathIsCompiledAfterItsFirstHundredCallsAndKeepsReadingEachCallsArguments() throws Exception {
        Expression expression = KeyExpressions.parse("#request.customer.id", "key", create, "create");

        for (int i = 0; i < 300; i++) {
            Object[] args = {new Order("o-" + i, new Customer("c-" + i))};
            assertThat(KeyExpressions.valueOf(expression, args)).isEqualTo("c-" + i);
        }
        assertThat(compiled(expression)).as("compiled to bytecode").isTrue();
    }

    @Test
    void aNullOnTheCompiledPathIsStillAMissingValueOfTheClient() throws Exception {
        Expression expression = KeyExpressions.parse("#request.customer.id", "key", create, "create");
        for (int i = 0; i < 300; i++) {
            KeyExpressions.valueOf(expression, new Object[] {new Order("o", new Customer("c"))});
        }

        RuntimeException missing = catchRuntimeException(
                () -> KeyExpressions.valueOf(expression, new Object[] {new Order("o", null)}));

        assertThat(KeyExpressions.isMissingValue(missing)).as("%s", missing).isTrue();
        assertThat(KeyExpressions.valueOf(expression, new Object[] {new Order("o", new Customer("again"))}))
                .isEqualTo("again");
    }

    private static boolean compiled(Expression expression) throws ReflectiveOperationException {
        // SpEL tells no one whether it compiled an expression; its field says
        Field field = SpelExpression.class.getDeclaredField("compiledAst");
        field.setAccessible(true);
        return field.get(expression) != null;
    }

    private static Method method() {
        try {
            return KeyExpressionsTest.class.getDeclaredMethod("create", Order.class);
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
