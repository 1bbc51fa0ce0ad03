package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Resolves the settings of every annotated method of every bean once the singletons exist, so
 * that invalid settings fail the application start with a message naming the method, and the
 * first request finds everything already cached.
 *
 * <p>It also finds annotations that cannot take effect, warns about each and keeps them for the
 * actuator endpoint: on private, static or final methods of beans (a proxy never sees those
 * calls), on methods a bean calls on itself ({@link SelfInvocations}), and, within the
 * application's packages, on classes that are not beans at all.
 */
public class AnnotatedMethodValidator implements SmartInitializingSingleton, BeanFactoryAware {

    private static final Logger log = LoggerFactory.getLogger(AnnotatedMethodValidator.class);

    private final ObjectProvider<AnnotatedMethodResolver> resolverProvider;

    private final Supplier<List<String>> applicationPackages;

    private final List<InactiveAnnotation> inactive = new CopyOnWriteArrayList<>();

    private List<AnnotatedMethodResolver> resolvers = List.of();

    /** Bean classes whose own calls to their annotated methods were looked for (once per class). */
    private final Set<Class<?>> scannedForSelfCalls = new HashSet<>();

    private ConfigurableListableBeanFactory beanFactory;

    /**
     * Creates a validator that checks beans only.
     *
     * @param resolvers the resolvers of every annotation in use, looked up once singletons exist
     */
    public AnnotatedMethodValidator(ObjectProvider<AnnotatedMethodResolver> resolvers) {
        this(resolvers, List::of);
    }

    /**
     * Creates the validator.
     *
     * @param resolvers the resolvers of every annotation in use, looked up once singletons exist
     * @param applicationPackages the packages searched for annotated classes that are not beans
     *     (Spring Boot's auto-configuration packages); empty to skip that search
     */
    public AnnotatedMethodValidator(ObjectProvider<AnnotatedMethodResolver> resolvers,
            Supplier<List<String>> applicationPackages) {
        this.resolverProvider = resolvers;
        this.applicationPackages = applicationPackages;
    }

    /**
     * The annotations found at startup that cannot take effect.
     *
     * @return each with the method and the reason
     */
    public List<InactiveAnnotation> inactive() {
        return List.copyOf(inactive);
    }

    @Override
    public void setBeanFactory(BeanFactory factory) {
        this.beanFactory = (ConfigurableListableBeanFactory) factory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        resolvers = resolverProvider.orderedStream().toList();
        Set<Class<?>> beanClasses = new HashSet<>();
        beanFactory.getBeanNamesIterator().forEachRemaining(beanName -> {
            Class<?> beanClass = beanClass(beanName);
            if (beanClass != null) {
                for (Class<?> type : declaringTypes(beanClass)) {
                    beanClasses.add(type);
                    validateBean(beanName, type);
                }
            }
        });
        findUnmanaged(beanClasses);
    }

    private @Nullable Class<?> beanClass(String beanName) {
        try {
            Class<?> type = beanFactory.getType(beanName, false);
            return type == null ? null : ClassUtils.getUserClass(type);
        } catch (RuntimeException ex) {
            return null;
        }
    }

    /**
     * Where a bean's annotations are declared: its class, or the interfaces of a JDK proxy (an
     * HTTP interface client, a repository), whose own methods are final but only forward to them.
     */
    private static List<Class<?>> declaringTypes(Class<?> beanClass) {
        if (!Proxy.isProxyClass(beanClass)) {
            return List.of(beanClass);
        }
        List<Class<?>> interfaces = new ArrayList<>();
        for (Class<?> type : beanClass.getInterfaces()) {
            if (!type.getName().startsWith("org.springframework.aop.")
                    && !type.getName().equals("org.springframework.core.DecoratingProxy")) {
                interfaces.add(type);
            }
        }
        return interfaces;
    }

    private void validateBean(String beanName, Class<?> targetClass) {
        Map<Method, List<String>> annotated = new LinkedHashMap<>();
        for (AnnotatedMethodResolver resolver : resolvers) {
            if (!AnnotationUtils.isCandidateClass(targetClass, resolver.annotationType())) {
                continue;
            }
            boolean onClass = AnnotatedElementUtils.hasAnnotation(targetClass, resolver.annotationType());
            ReflectionUtils.doWithMethods(targetClass, method -> {
                validate(resolver, method, targetClass, beanName);
                if (AnnotatedMethods.unreachableReason(method) == null) {
                    annotated.computeIfAbsent(method, m -> new ArrayList<>())
                            .add("@" + resolver.annotationType().getSimpleName());
                }
            }, method -> method.getDeclaringClass() != Object.class && !method.isBridge()
                    && (AnnotatedElementUtils.hasAnnotation(method, resolver.annotationType())
                            || (onClass && Modifier.isPublic(method.getModifiers()))));
        }
        if (!annotated.isEmpty() && scannedForSelfCalls.add(targetClass)) {
            for (SelfInvocations.Call call : SelfInvocations.find(targetClass, annotated.keySet())) {
                for (String annotation : annotated.getOrDefault(call.callee(), List.of())) {
                    report(new InactiveAnnotation(AnnotatedMethods.describe(call.callee(), targetClass), annotation,
                            "called from " + call.caller() + "() of the same class, a call the proxy never sees; "
                                    + "other beans' calls are governed"));
                }
            }
        }
    }

    private void validate(AnnotatedMethodResolver resolver, Method method, Class<?> targetClass,
            String beanName) {
        String unreachable = AnnotatedMethods.unreachableReason(method);
        if (unreachable != null) {
            report(new InactiveAnnotation(AnnotatedMethods.describe(method, targetClass),
                    "@" + resolver.annotationType().getSimpleName(), unreachable));
            return;
        }
        try {
            resolver.resolve(method, targetClass);
        } catch (RuntimeException ex) {
            throw new BeanCreationException(beanName, ex.getMessage(), ex);
        }
    }

    private void report(InactiveAnnotation annotation) {
        inactive.add(annotation);
        log.warn("{} on {} has no effect: {}. Calls from inside the same class (this.method()) are not governed "
                + "either (docs/semantics.md).", annotation.annotation(), annotation.method(), annotation.reason());
    }

    /** Annotated concrete classes of the application's packages that no bean is an instance of. */
    private void findUnmanaged(Set<Class<?>> beanClasses) {
        List<String> packages = applicationPackages.get();
        if (packages.isEmpty() || resolvers.isEmpty()) {
            return;
        }
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false) {
            @Override
            protected boolean isCandidateComponent(AnnotatedBeanDefinition definition) {
                return definition.getMetadata().isConcrete() && definition.getMetadata().isIndependent();
            }
        };
        ClassLoader loader = beanFactory.getBeanClassLoader();
        scanner.setResourceLoader(new DefaultResourceLoader(loader));
        for (AnnotatedMethodResolver resolver : resolvers) {
            String name = resolver.annotationType().getName();
            scanner.addIncludeFilter((reader, factory) -> reader.getAnnotationMetadata().hasAnnotatedMethods(name)
                    || reader.getAnnotationMetadata().hasAnnotation(name));
        }
        Set<String> seen = new HashSet<>();
        for (String basePackage : packages) {
            for (BeanDefinition candidate : scanner.findCandidateComponents(basePackage)) {
                String className = candidate.getBeanClassName();
                if (className == null || !seen.add(className)) {
                    continue;
                }
                Class<?> type;
                try {
                    type = ClassUtils.forName(className, loader);
                } catch (ClassNotFoundException | LinkageError ex) {
                    continue;
                }
                if (beanClasses.stream().noneMatch(type::isAssignableFrom)) {
                    for (AnnotatedMethodResolver resolver : resolvers) {
                        reportUnmanaged(type, resolver.annotationType());
                    }
                }
            }
        }
    }

    private void reportUnmanaged(Class<?> type, Class<? extends Annotation> annotationType) {
        boolean onClass = AnnotatedElementUtils.hasAnnotation(type, annotationType);
        ReflectionUtils.doWithMethods(type, method -> report(new InactiveAnnotation(
                AnnotatedMethods.describe(method, type), "@" + annotationType.getSimpleName(),
                type.getSimpleName() + " is not a Spring bean, so calls on its instances are not intercepted")),
                method -> method.getDeclaringClass() != Object.class && !method.isBridge()
                        && (AnnotatedElementUtils.hasAnnotation(method, annotationType)
                                || (onClass && Modifier.isPublic(method.getModifiers()))));
    }
}
