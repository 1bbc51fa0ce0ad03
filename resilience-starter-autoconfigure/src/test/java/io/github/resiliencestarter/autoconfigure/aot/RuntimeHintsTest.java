package io.github.resiliencestarter.autoconfigure.aot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.IdempotencyExempt;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.ExecutableHint;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.javapoet.ClassName;

/**
 * Issue 48, item 2: what a native image of an application with the starter needs to be told,
 * checked with Spring's {@code RuntimeHintsPredicates}: every script the stores load, the
 * annotations, and per annotated bean its fallbacks and an {@code @Idempotent} method's argument
 * and answer types.
 */
class RuntimeHintsTest {

    private final RuntimeHints hints = new RuntimeHints();

    @Test
    void theStartersHintsAndProcessorAreFoundAsSpringAotFindsThem() {
        assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
                .anyMatch(ResilienceRuntimeHints.class::isInstance);
        assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
                .anyMatch(AnnotatedBeanHints.class::isInstance);
    }

    @Test
    void everyScriptAStoreLoadsIsAResourceHint() throws IOException {
        new ResilienceRuntimeHints().registerHints(hints, getClass().getClassLoader());
        List<String> scripts = new ArrayList<>();
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
        for (String folder : List.of("db/resilience-starter/", "io/github/resiliencestarter/idempotent/redis/")) {
            for (Resource found : resolver.getResources("classpath*:" + folder + "**/*.*")) {
                String url = found.getURL().toString();
                if (!url.endsWith(".class")) {
                    scripts.add(url.substring(url.lastIndexOf(folder)));
                }
            }
        }

        assertThat(scripts).as("the schema scripts, the change log and the Lua scripts").hasSizeGreaterThan(10)
                .contains("db/resilience-starter/mysql/R__resilience_idempotency.sql",
                        "io/github/resiliencestarter/idempotent/redis/claim.lua");
        assertThat(scripts).allMatch(script -> RuntimeHintsPredicates.resource().forResource(script).test(hints));
        assertThat(RuntimeHintsPredicates.resource().forResource("db/other/schema.sql").test(hints)).isFalse();
    }

    @Test
    void theAnnotationsAttributesCanBeRead() {
        new ResilienceRuntimeHints().registerHints(hints, getClass().getClassLoader());

        for (Class<?> annotation : List.of(Timeout.class, Retry.class, Idempotent.class, CircuitBreaker.class,
                IdempotencyExempt.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onType(annotation)
                    .withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS).test(hints)).as(annotation.getName())
                    .isTrue();
        }
    }

    /** A request body, read by a key expression and bound for the stored answer. */
    public record OrderRequest(String orderNo, int quantity) {
    }

    /** An answer, stored and replayed. */
    public record OrderView(String orderNo, String status) {
    }

    /** A bean as users write them: fallbacks named by the annotations, a keyed idempotent method. */
    public static class Orders {

        @Retry(fallbackMethod = "recover")
        public String create(OrderRequest request) {
            return "created";
        }

        String recover(OrderRequest request, Throwable failure) {
            return "later";
        }

        @Idempotent(key = "#request.orderNo")
        @Timeout(value = "2s", fallbackMethod = "tooSlow")
        public OrderView place(OrderRequest request) {
            return new OrderView(request.orderNo(), "PLACED");
        }

        OrderView tooSlow(OrderRequest request) {
            return new OrderView(request.orderNo(), "PENDING");
        }

        void notNamed() {
        }
    }

    /** A bean the starter has nothing to do with. */
    public static class Plain {

        public String hello() {
            return "hello";
        }
    }

    private RuntimeHints processed(Class<?> beanClass) {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
        BeanRegistrationAotContribution contribution = new AnnotatedBeanHints()
                .processAheadOfTime(RegisteredBean.of(beans, "bean"));
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "Application")), new InMemoryGeneratedFiles());
        if (contribution != null) {
            contribution.applyTo(generation, mock(BeanRegistrationCode.class));
        }
        return generation.getRuntimeHints();
    }

    private static List<String> invocable(RuntimeHints hints, Class<?> type) {
        TypeHint hint = hints.reflection().getTypeHint(type);
        return hint == null ? List.of() : hint.methods().filter(method -> method.getMode() == ExecutableMode.INVOKE)
                .map(ExecutableHint::getName).toList();
    }

    @Test
    void anAnnotatedBeansFallbacksMayBeFoundAndInvoked() {
        RuntimeHints processed = processed(Orders.class);

        assertThat(invocable(processed, Orders.class)).containsExactlyInAnyOrder("recover", "tooSlow");
        assertThat(RuntimeHintsPredicates.reflection().onType(Orders.class)
                .withMemberCategory(MemberCategory.INTROSPECT_DECLARED_METHODS).test(processed)).isTrue();
    }

    @Test
    void anIdempotentMethodsArgumentAndAnswerTypesAreBound() {
        RuntimeHints processed = processed(Orders.class);

        assertThat(processed.reflection().getTypeHint(OrderRequest.class)).as("read by the key expression")
                .isNotNull();
        assertThat(processed.reflection().getTypeHint(OrderView.class)).as("stored and replayed").isNotNull();
    }

    @Test
    void aBeanWithoutTheAnnotationsGetsNothing() {
        assertThat(new AnnotatedBeanHints().processAheadOfTime(RegisteredBean.of(beansWith(Plain.class), "bean")))
                .isNull();
    }

    private static DefaultListableBeanFactory beansWith(Class<?> beanClass) {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
        return beans;
    }
}
