package io.github.resiliencestarter.spring.aop;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.NativeDetector;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.expression.spel.SpelMessage;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.SpelNodeImpl;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.ReflectivePropertyAccessor;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.util.ReflectionUtils;

/**
 * The SpEL expressions of {@code @Idempotent(key, fingerprint)}: parsed once, checked against the
 * method at startup (every {@code #name} is a parameter; the first property after it exists on the
 * parameter's declared type), and evaluated per call over the method's arguments.
 *
 * <p>What is checked at startup is a fault of the code and fails the start; what can only fail at
 * run time is told apart by {@link #isMissingValue(RuntimeException)}: a missing value in the
 * client's data is the client's fault (400), anything else the server's (500).
 */
final class KeyExpressions {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    private KeyExpressions() {
    }

    /**
     * Parses and checks one expression.
     *
     * @param expression the SpEL text, or empty for none
     * @param attribute the annotation attribute, for messages
     * @param method the annotated method
     * @param described the method as messages name it
     * @return the expression, or {@code null} when empty
     * @throws InvalidDeclarationException when it does not parse or names what the method lacks
     */
    static @Nullable Expression parse(String expression, String attribute, Method method, String described) {
        if (expression.isEmpty()) {
            return null;
        }
        SpelExpression spel;
        try {
            // without a template context the parser always returns a SpelExpression
            spel = (SpelExpression) PARSER.parseExpression(expression);
        } catch (ParseException ex) {
            throw new InvalidDeclarationException("@Idempotent(" + attribute + " = \"" + expression + "\") on "
                    + described + " is not a valid SpEL expression: " + ex.getMessage() + ".",
                    "Correct the expression, for example #request.orderNo (see docs/idempotency.md).", ex);
        }
        String problem = check(spel.getAST(), method);
        if (problem != null) {
            throw new InvalidDeclarationException("@Idempotent(" + attribute + " = \"" + expression + "\") on "
                    + described + " " + problem + ".", "Name a parameter of the method (its parameters are "
                    + Arrays.toString(parameterNames(method)) + "; the build must compile with -parameters) "
                    + "and a property its type has; read a Map's entry as #body['id'].");
        }
        if (spel.getAST() instanceof VariableReference variable) {
            Integer index = parameterIndex(method, variable.toStringAST().substring(1));
            if (index != null) {
                return new ParameterReference(expression, (SpelNodeImpl) spel.getAST(), index);
            }
        }
        return new ArgumentsExpression(expression, (SpelNodeImpl) spel.getAST(), parameterNames(method),
                method.getDeclaringClass().getClassLoader());
    }

    /**
     * The value of an expression for a call's arguments.
     *
     * @param expression an expression {@link #parse} returned
     * @param args the call's arguments
     * @return the value
     */
    static @Nullable Object valueOf(Expression expression, Object[] args) {
        if (expression instanceof ParameterReference reference) {
            return args[reference.index];
        }
        ArgumentsExpression bound = (ArgumentsExpression) expression;
        return bound.getValue(new ArgumentsContext(bound.names, bound.accessors, args));
    }

    /**
     * An expression that is only a parameter ({@code #key}, {@code #a0}): the most common key, read
     * from the arguments directly instead of through an evaluation context built for every call.
     */
    private static final class ParameterReference extends SpelExpression {

        private final int index;

        ParameterReference(String expression, SpelNodeImpl ast, int index) {
            super(expression, ast, new SpelParserConfiguration());
            this.index = index;
        }
    }

    /**
     * Any other expression, with the method's parameter names looked up once, at parse time.
     *
     * <p>Compiled to bytecode once it has run a hundred times ({@link SpelCompilerMode#MIXED}), so
     * a property path such as {@code #request.orderNo} becomes a getter call. Should the compiled
     * form fail (a null on the path, an argument of another class), SpEL runs that call
     * interpreted, so a missing value is still told apart as the client's fault. A native image
     * cannot define classes at run time: there it stays interpreted.
     */
    private static final class ArgumentsExpression extends SpelExpression {

        private final String[] names;

        /**
         * The accessor every call's context shares: a context of its own would make a new one,
         * whose empty caches reflect on the argument's class again on every call. One per
         * expression, not one for all: its caches hold the argument classes, which must not
         * outlive the application (a devtools restart drops their class loader).
         */
        private final List<PropertyAccessor> accessors = List.of(new ReflectivePropertyAccessor());

        ArgumentsExpression(String expression, SpelNodeImpl ast, String[] names, @Nullable ClassLoader loader) {
            super(expression, ast, new SpelParserConfiguration(
                    NativeDetector.inNativeImage() ? SpelCompilerMode.OFF : SpelCompilerMode.MIXED, loader));
            this.names = names;
        }
    }

    /**
     * The context an expression is evaluated in: the arguments by parameter name, and as
     * {@code #a0}/{@code #p0}. What Spring's {@code MethodBasedEvaluationContext} offers, without
     * asking the parameter name discoverer (which reflects on the method) on every call.
     */
    private static final class ArgumentsContext extends StandardEvaluationContext {

        private final List<PropertyAccessor> accessors;

        private final String[] names;

        private final Object[] args;

        ArgumentsContext(String[] names, List<PropertyAccessor> accessors, Object[] args) {
            this.names = names;
            this.accessors = accessors;
            this.args = args;
        }

        @Override
        public List<PropertyAccessor> getPropertyAccessors() {
            return accessors;
        }

        @Override
        public @Nullable Object lookupVariable(String name) {
            Object set = super.lookupVariable(name);
            if (set != null) {
                return set;
            }
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(name)) {
                    return args[i];
                }
            }
            int index = aliasIndex(name);
            return index >= 0 && index < args.length ? args[index] : null;
        }
    }

    /**
     * Whether an evaluation failed only because a value in the client's data was null, such as
     * {@code #request.customer.id} without a customer.
     *
     * @param ex the failure (SpEL rethrows what a called method throws as it is)
     * @return {@code true} for a missing value, {@code false} for a fault of the expression
     */
    static boolean isMissingValue(RuntimeException ex) {
        return ex instanceof SpelEvaluationException spel
                && (spel.getMessageCode() == SpelMessage.PROPERTY_OR_FIELD_NOT_READABLE_ON_NULL
                        || spel.getMessageCode() == SpelMessage.METHOD_CALL_ON_NULL_OBJECT_NOT_ALLOWED);
    }

    private static @Nullable String check(SpelNode node, Method method) {
        if (node instanceof VariableReference variable) {
            String name = variable.toStringAST().substring(1);
            if (parameterIndex(method, name) == null && !name.equals("root") && !name.equals("this")) {
                return "names #" + name + ", which is not a parameter of the method";
            }
        }
        if (node instanceof CompoundExpression && node.getChildCount() > 1
                && node.getChild(0) instanceof VariableReference variable
                && node.getChild(1) instanceof PropertyOrFieldReference property) {
            Integer index = parameterIndex(method, variable.toStringAST().substring(1));
            if (index != null) {
                Class<?> type = method.getParameterTypes()[index];
                if (!hasProperty(type, property.getName())) {
                    return "reads " + property.getName() + " of " + variable.toStringAST() + ", but its type "
                            + type.getSimpleName() + " has no such property";
                }
            }
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            String problem = check(node.getChild(i), method);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static @Nullable Integer parameterIndex(Method method, String name) {
        String[] names = parameterNames(method);
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        int index = aliasIndex(name);
        return index >= 0 && index < method.getParameterCount() ? index : null;
    }

    /** The index of {@code a0}, {@code p1}, ...; {@code -1} for any other name. */
    private static int aliasIndex(String name) {
        if (name.length() < 2 || name.length() > 4 || (name.charAt(0) != 'a' && name.charAt(0) != 'p')) {
            return -1;
        }
        int index = 0;
        for (int i = 1; i < name.length(); i++) {
            char digit = name.charAt(i);
            if (digit < '0' || digit > '9') {
                return -1;
            }
            index = index * 10 + digit - '0';
        }
        return index;
    }

    private static String[] parameterNames(Method method) {
        String[] names = NAMES.getParameterNames(method);
        return names != null ? names : new String[0];
    }

    /** What SpEL's reflective accessor can read: a getter, a public field, or a record-style accessor. */
    private static boolean hasProperty(Class<?> type, String name) {
        if (type == Object.class) {
            return true;
        }
        PropertyDescriptor descriptor = BeanUtils.getPropertyDescriptor(type, name);
        if (descriptor != null && descriptor.getReadMethod() != null) {
            return true;
        }
        Field field = ReflectionUtils.findField(type, name);
        if (field != null && Modifier.isPublic(field.getModifiers())) {
            return true;
        }
        Method accessor = ReflectionUtils.findMethod(type, name);
        return accessor != null && Modifier.isPublic(accessor.getModifiers());
    }
}
