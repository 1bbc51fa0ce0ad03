package io.github.resiliencestarter.autoconfigure.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * Spring Boot's conventions, checked over every configuration class of the starter: every bean
 * can be replaced by the application's own, no configuration reaches into a type nested in
 * another auto-configuration, and every auto-configuration's conditions are written down at build
 * time by Boot's auto-configure processor.
 */
class AutoConfigurationConventionsTest {

    private static List<Class<?>> configurationClasses() throws ClassNotFoundException {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false) {
            @Override
            protected boolean isCandidateComponent(
                    org.springframework.beans.factory.annotation.AnnotatedBeanDefinition definition) {
                return true; // nested and package-private configurations too
            }
        };
        scanner.addIncludeFilter(new AnnotationTypeFilter(Configuration.class));
        List<Class<?>> classes = new ArrayList<>();
        for (BeanDefinition definition : scanner.findCandidateComponents("io.github.resiliencestarter.autoconfigure")) {
            Class<?> type = ClassUtils.forName(definition.getBeanClassName(), null);
            if (!type.getName().contains("Test")) {
                classes.add(type);
            }
        }
        return classes;
    }

    @Test
    void everyBeanBacksOffWhenTheApplicationDefinesItsOwn() throws Exception {
        List<Class<?>> classes = configurationClasses();
        assertThat(classes).hasSizeGreaterThan(10);
        List<String> missing = new ArrayList<>();
        for (Class<?> type : classes) {
            for (Method method : type.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Bean.class) && !method.isAnnotationPresent(ConditionalOnMissingBean.class)
                        && !type.isAnnotationPresent(ConditionalOnMissingBean.class)) {
                    missing.add(type.getSimpleName() + "." + method.getName());
                }
            }
        }
        assertThat(missing).as("@Bean methods without @ConditionalOnMissingBean").isEmpty();
    }

    @Test
    void noConfigurationUsesATypeNestedInAnotherAutoConfiguration() throws Exception {
        List<String> reaching = new ArrayList<>();
        for (Class<?> type : configurationClasses()) {
            for (Method method : type.getDeclaredMethods()) {
                List<Class<?>> used = new ArrayList<>(List.of(method.getParameterTypes()));
                used.add(method.getReturnType());
                for (Class<?> usedType : used) {
                    Class<?> outer = usedType.getEnclosingClass();
                    if (outer != null && outer.getName().endsWith("AutoConfiguration")
                            && outer != type && outer != type.getEnclosingClass()) {
                        reaching.add(type.getSimpleName() + "." + method.getName() + " uses " + usedType.getName());
                    }
                }
            }
        }
        assertThat(reaching).isEmpty();
    }

    @Test
    void everyAutoConfigurationHasItsConditionsWrittenDownAtBuildTime() throws Exception {
        List<String> imported = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                .getCandidates().stream().filter(name -> name.startsWith("io.github.resiliencestarter.")).toList();
        Properties metadata = PropertiesLoaderUtils.loadProperties(
                new ClassPathResource("META-INF/spring-autoconfigure-metadata.properties"));

        assertThat(imported).hasSizeGreaterThan(20);
        // the processor writes a line per auto-configuration, and one per condition it can read early
        assertThat(imported).allMatch(metadata::containsKey);
        assertThat(metadata).containsEntry("io.github.resiliencestarter.autoconfigure.tracing.TracingAutoConfiguration"
                + ".ConditionalOnClass", "io.micrometer.tracing.Tracer");
    }
}
