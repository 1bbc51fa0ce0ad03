package io.github.resiliencestarter.autoconfigure.chaos;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.chaos.ChaosFault;
import io.github.resiliencestarter.chaos.ChaosTrigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/** Fault injection for rehearsals ({@code resilience.chaos.*}); docs/chaos.md. */
@ConfigurationProperties(ChaosProperties.PREFIX)
public class ChaosProperties implements Validator {

    /** Where these properties live. */
    public static final String PREFIX = "resilience.chaos";

    /** Whether faults are injected at all (default false). */
    private boolean enabled;

    /** Profiles in which switching chaos on fails the start (default prod). */
    private List<String> refusedProfiles = new ArrayList<>(List.of("prod"));

    /** Lets chaos run in a refused profile, for a deliberate rehearsal there (default false). */
    private boolean allowInRefusedProfiles;

    private final Header header = new Header();

    /** The faults by name. */
    private Map<String, Fault> faults = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public List<String> getRefusedProfiles() {
        return refusedProfiles;
    }

    public void setRefusedProfiles(List<String> refusedProfiles) {
        this.refusedProfiles = refusedProfiles;
    }

    public boolean isAllowInRefusedProfiles() {
        return allowInRefusedProfiles;
    }

    public void setAllowInRefusedProfiles(boolean allowInRefusedProfiles) {
        this.allowInRefusedProfiles = allowInRefusedProfiles;
    }

    public Header getHeader() {
        return header;
    }

    public Map<String, Fault> getFaults() {
        return faults;
    }

    public void setFaults(Map<String, Fault> faults) {
        this.faults = faults;
    }

    /**
     * The faults these properties describe.
     *
     * @return the engine's faults
     */
    public List<ChaosFault> toFaults() {
        List<ChaosFault> all = new ArrayList<>();
        faults.forEach((name, fault) -> all.add(fault.toFault(name)));
        return all;
    }

    /**
     * The operation names of the methods the faults target.
     *
     * @return the names
     */
    public Set<String> methodTargets() {
        Set<String> methods = new HashSet<>();
        faults.values().forEach(fault -> {
            if (fault.getMethod() != null) {
                methods.add(fault.getMethod());
            }
        });
        return methods;
    }

    @Override
    public boolean supports(Class<?> type) {
        return ChaosProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks checks = PropertyChecks.reportingTo(errors);
        faults.forEach((name, fault) -> checks.check("faults[" + name + "].", Map.of("rollout", "share"),
                () -> fault.toFault(name)));
    }

    /** The request header that switches faults with trigger HEADER on for one request. */
    public static class Header {

        /** The header's name; its value lists fault names, comma-separated. */
        private String name = "X-Resilience-Chaos";

        /**
         * Callers whose header is honoured: principal names, or "anonymous" in an application
         * without a security filter chain. Empty (the default): the header is ignored.
         */
        private List<String> allowedCallers = new ArrayList<>();

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public List<String> getAllowedCallers() {
            return allowedCallers;
        }

        public void setAllowedCallers(List<String> allowedCallers) {
            this.allowedCallers = allowedCallers;
        }
    }

    /** One fault. */
    public static class Fault {

        /** The annotated method it is injected into, by operation name (OrderService.place). */
        private @Nullable String method;

        /** The outbound host:port (or host) of RestClient and RestTemplate requests it is injected into. */
        private @Nullable String client;

        /** The share of matching calls, 0 to 100 (default 100). */
        private double share = 100;

        /** A delay before the call. */
        private @Nullable Duration latency;

        /** An exception thrown instead of the call. */
        private @Nullable Class<? extends Throwable> exception;

        /** An HTTP status answered instead of sending the request (client faults only). */
        private @Nullable Integer status;

        /** ALWAYS (default), or HEADER: only for requests naming the fault in the chaos header. */
        private ChaosTrigger trigger = ChaosTrigger.ALWAYS;

        public @Nullable String getMethod() {
            return method;
        }

        public void setMethod(@Nullable String method) {
            this.method = method;
        }

        public @Nullable String getClient() {
            return client;
        }

        public void setClient(@Nullable String client) {
            this.client = client;
        }

        public double getShare() {
            return share;
        }

        public void setShare(double share) {
            this.share = share;
        }

        public @Nullable Duration getLatency() {
            return latency;
        }

        public void setLatency(@Nullable Duration latency) {
            this.latency = latency;
        }

        public @Nullable Class<? extends Throwable> getException() {
            return exception;
        }

        public void setException(@Nullable Class<? extends Throwable> exception) {
            this.exception = exception;
        }

        public @Nullable Integer getStatus() {
            return status;
        }

        public void setStatus(@Nullable Integer status) {
            this.status = status;
        }

        public ChaosTrigger getTrigger() {
            return trigger;
        }

        public void setTrigger(ChaosTrigger trigger) {
            this.trigger = trigger;
        }

        ChaosFault toFault(String name) {
            return new ChaosFault(name, method, client, share, latency, exception, status, trigger);
        }
    }
}
