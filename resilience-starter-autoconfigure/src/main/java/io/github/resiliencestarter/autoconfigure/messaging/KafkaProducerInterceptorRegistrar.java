package io.github.resiliencestarter.autoconfigure.messaging;

import io.github.resiliencestarter.spring.messaging.kafka.KafkaTraceProducerInterceptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;

/**
 * Appends the starter's producer interceptor to the {@code interceptor.classes} of every
 * {@code DefaultKafkaProducerFactory} of the application, Boot's or its own, after those it
 * already names, with the topics whose records carry the deadline.
 */
class KafkaProducerInterceptorRegistrar implements BeanPostProcessor {

    private final ObjectProvider<MessagingProperties> properties;

    KafkaProducerInterceptorRegistrar(ObjectProvider<MessagingProperties> properties) {
        this.properties = properties;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DefaultKafkaProducerFactory<?, ?> factory) {
            List<String> interceptors = new ArrayList<>(names(factory.getConfigurationProperties()
                    .get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG)));
            String ours = KafkaTraceProducerInterceptor.class.getName();
            if (!interceptors.contains(ours)) {
                interceptors.add(ours);
                Map<String, Object> configs = new HashMap<>();
                configs.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, String.join(",", interceptors));
                List<String> topics = properties.getObject().getDeadlineDestinations();
                if (!topics.isEmpty()) {
                    // only when set: Kafka warns of every setting its own classes do not read
                    configs.put(KafkaTraceProducerInterceptor.DEADLINE_TOPICS_CONFIG, String.join(",", topics));
                }
                factory.updateConfigs(configs);
            }
        }
        return bean;
    }

    /** Kafka takes the setting as a comma-separated string, a list of names or a list of classes. */
    private static List<String> names(@Nullable Object setting) {
        if (setting instanceof String names) {
            return Arrays.stream(names.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
        }
        if (setting instanceof List<?> list) {
            return list.stream().map(each -> each instanceof Class<?> type ? type.getName() : each.toString()).toList();
        }
        return List.of();
    }
}
