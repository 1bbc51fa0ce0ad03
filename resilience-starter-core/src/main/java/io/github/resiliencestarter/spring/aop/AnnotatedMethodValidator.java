package io.github.resiliencestarter.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Resolves the settings of every annotated method of every bean once the singletons exist, so
 * that invalid settings fail the application start with a message naming the method, and the
 * first request finds everything already cached.
 */
public class AnnotatedMethodValidator implements SmartInitializingSingleton, BeanFactoryAware {

    private final ObjectProvider<AnnotatedMethodResolver> resolverProvider;

    private List<AnnotatedMethodResolver> resolvers = List.of();

    private ConfigurableListableBeanFactory beanFactory;

    /**
     * Creates the validator.
     *
     * @param resolvers the resolvers of every annotation in use, looked up once singletons exist
     */
    public AnnotatedMethodValidator(ObjectProvider<AnnotatedMethodResolver> resolvers) {
        this.resolverProvider = resolvers;
    }

    @Override
    public void setBeanFactory(BeanFactory factory) {
        this.beanFactory = (ConfigurableListableBeanFactory) factory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        resolvers = resolverProvider.orderedStream().toList();
        beanFactory.getBeanNamesIterator().forEachRemaining(this::validateBean);
    }

    private void validateBean(String beanName) {
        Class<?> type;
        try {
            type = beanFactory.getType(beanName, false);
        } catch (RuntimeException ex) {
            return;
        }
        if (type == null) {
            return;
        }
        Class<?> targetClass = ClassUtils.getUserClass(type);
        for (AnnotatedMethodResolver resolver : resolvers) {
            if (!AnnotationUtils.isCandidateClass(targetClass, resolver.annotationType())) {
                continue;
            }
            boolean onClass = AnnotatedElementUtils.hasAnnotation(targetClass, resolver.annotationType());
            ReflectionUtils.doWithMethods(targetClass, method -> validate(resolver, method, targetClass, beanName),
                    method -> method.getDeclaringClass() != Object.class && !method.isBridge()
                            && (AnnotatedElementUtils.hasAnnotation(method, resolver.annotationType())
                                    || (onClass && Modifier.isPublic(method.getModifiers()))));
        }
    }

    private static void validate(AnnotatedMethodResolver resolver, Method method, Class<?> targetClass,
            String beanName) {
        try {
            resolver.resolve(method, targetClass);
        } catch (RuntimeException ex) {
            throw new BeanCreationException(beanName, ex.getMessage(), ex);
        }
    }
}
