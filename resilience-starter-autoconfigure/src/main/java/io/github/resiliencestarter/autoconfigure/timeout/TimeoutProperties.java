package io.github.resiliencestarter.autoconfigure.timeout;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.timeout.TimeoutConfig;
import io.github.resiliencestarter.timeout.TimeoutConfigRegistry;
import io.github.resiliencestarter.timeout.TimeoutRuntime;
import io.github.resiliencestarter.timeout.support.TimeoutExecutors;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * {@code @Timeout} settings: defaults under {@code resilience.timeout.*}, named instances under
 * {@code resilience.timeout.instances.<name>.*}, and the OFFLOAD executor.
 */
@ConfigurationProperties("resilience.timeout")
public class TimeoutProperties extends TimeoutInstanceProperties implements Validator {

    /** Whether @Timeout is applied. */
    private boolean enabled = true;

    /** Named settings, selected with @Timeout(name = "..."); unset values fall back to the defaults above. */
    private Map<String, TimeoutInstanceProperties> instances = new LinkedHashMap<>();

    private final Executor executor = new Executor();

    /** Starts from the engine's defaults, so they show up as this class's values. */
    public TimeoutProperties() {
        setDuration(TimeoutConfig.DEFAULT_TIMEOUT);
        setMode(TimeoutConfig.DEFAULT_MODE);
        setRollout(100.0);
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Map<String, TimeoutInstanceProperties> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, TimeoutInstanceProperties> instances) {
        this.instances = instances;
    }

    public Executor getExecutor() {
        return executor;
    }

    /**
     * The registry these properties describe.
     *
     * @return default and named settings
     */
    public TimeoutConfigRegistry toRegistry(List<TimeoutConfigCustomizer> customizers) {
        TimeoutConfig defaults = merge(TimeoutConfig.ofDefaults(), this);
        Map<String, TimeoutConfig> named = new LinkedHashMap<>();
        instances.forEach((name, instance) -> named.put(name, merge(defaults, instance)));
        for (TimeoutConfigCustomizer customizer : customizers) {
            TimeoutConfig.Builder builder = TimeoutConfig.from(named.getOrDefault(customizer.name(), defaults));
            customizer.customize(builder);
            named.put(customizer.name(), builder.build());
        }
        return TimeoutConfigRegistry.of(defaults, named);
    }

    /** Engine setting names whose property is named differently. */
    private static final Map<String, String> RENAMED = Map.of("timeout", "duration");

    @Override
    public boolean supports(Class<?> type) {
        return TimeoutProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks checks = PropertyChecks.reportingTo(errors);
        TimeoutConfig[] defaults = {TimeoutConfig.ofDefaults()};
        checks.check("", RENAMED, () -> defaults[0] = merge(defaults[0], this));
        instances.forEach((name, instance) -> checks.check("instances[" + name + "].", RENAMED,
                () -> merge(defaults[0], instance)));
        checks.check("executor.", () -> TimeoutExecutors.checkSizes(executor.getCoreSize(), executor.getMaxSize(),
                executor.getQueueCapacity()));
    }

    private static TimeoutConfig merge(TimeoutConfig base, TimeoutInstanceProperties settings) {
        TimeoutConfig.Builder builder = TimeoutConfig.from(base);
        if (settings.getDuration() != null) {
            builder.timeout(settings.getDuration());
        }
        if (settings.getMode() != null) {
            builder.mode(settings.getMode());
        }
        if (settings.getRollout() != null) {
            builder.rollout(settings.getRollout());
        }
        return builder.build();
    }

    /** The bounded executor OFFLOAD timeouts run on. */
    public static class Executor {

        /** Threads kept alive when idle. */
        private int coreSize = TimeoutExecutors.DEFAULT_CORE_SIZE;

        /** Most threads running at once; further calls are rejected (503), never run on the caller. */
        private int maxSize = TimeoutExecutors.DEFAULT_MAX_SIZE;

        /** Calls that may wait for a thread; 0 rejects as soon as every thread is busy. */
        private int queueCapacity = TimeoutExecutors.DEFAULT_QUEUE_CAPACITY;

        /** Idle time after which a thread above the core size ends. */
        private Duration keepAlive = TimeoutExecutors.DEFAULT_KEEP_ALIVE;

        /** Prefix of the worker thread names. */
        private String threadNamePrefix = TimeoutExecutors.DEFAULT_THREAD_NAME_PREFIX;

        /** How long shutdown waits for running calls before interrupting them. */
        private Duration awaitTermination = TimeoutRuntime.DEFAULT_AWAIT_TERMINATION;

        public int getCoreSize() {
            return coreSize;
        }

        public void setCoreSize(int coreSize) {
            this.coreSize = coreSize;
        }

        public int getMaxSize() {
            return maxSize;
        }

        public void setMaxSize(int maxSize) {
            this.maxSize = maxSize;
        }

        public int getQueueCapacity() {
            return queueCapacity;
        }

        public void setQueueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
        }

        public Duration getKeepAlive() {
            return keepAlive;
        }

        public void setKeepAlive(Duration keepAlive) {
            this.keepAlive = keepAlive;
        }

        public String getThreadNamePrefix() {
            return threadNamePrefix;
        }

        public void setThreadNamePrefix(String threadNamePrefix) {
            this.threadNamePrefix = threadNamePrefix;
        }

        public Duration getAwaitTermination() {
            return awaitTermination;
        }

        public void setAwaitTermination(Duration awaitTermination) {
            this.awaitTermination = awaitTermination;
        }
    }
}
