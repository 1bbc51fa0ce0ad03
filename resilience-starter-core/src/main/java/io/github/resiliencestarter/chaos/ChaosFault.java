package io.github.resiliencestarter.chaos;

import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One named fault, immutable: where it is injected (an annotated method by its operation name, or
 * outbound requests by their host and port), into which share of calls, when, and what: a
 * latency, an exception, an HTTP status (outbound only), or a latency followed by one of the two.
 *
 * @param name the fault's name, as the chaos header names it
 * @param method the operation name of the method it is injected into ({@code OrderService.place}), or {@code null}
 * @param client the {@code host:port} (or {@code host}) of the outbound requests it is injected into, or {@code null}
 * @param percent the share of matching calls, 0 to 100
 * @param latency the delay before the call, or {@code null}
 * @param exception the exception thrown instead of the call, or {@code null}
 * @param status the HTTP status answered instead of sending the request (outbound only), or {@code null}
 * @param trigger always, or only for requests that ask for it
 */
public record ChaosFault(String name, @Nullable String method, @Nullable String client, double percent,
        @Nullable Duration latency, @Nullable Class<? extends Throwable> exception, @Nullable Integer status,
        ChaosTrigger trigger) {

    /**
     * Checks the fault.
     *
     * @throws InvalidSettingException naming the setting that is wrong
     */
    public ChaosFault {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(trigger, "trigger");
        if ((method == null) == (client == null)) {
            throw new InvalidSettingException("method", "set exactly one of method (an annotated method's name, "
                    + "such as OrderService.place) and client (an outbound host:port)", method);
        }
        RolloutPolicy.checkPercent(percent);
        if (latency == null && exception == null && status == null) {
            throw new InvalidSettingException("latency", "a fault needs a latency, an exception or a status", null);
        }
        if (latency != null && (latency.isNegative() || latency.isZero())) {
            throw new InvalidSettingException("latency", "must be positive", latency);
        }
        if (status != null && (method != null || status < 400 || status > 599)) {
            throw new InvalidSettingException("status", method != null
                    ? "applies to outbound requests (client), not to methods: inject an exception there"
                    : "must be an error status, 400 to 599", status);
        }
        if (exception != null && status != null) {
            throw new InvalidSettingException("exception", "set an exception or a status, not both", exception);
        }
        if (exception != null) {
            constructor(exception);
        }
    }

    /**
     * A new instance of the fault's exception, its message naming the fault.
     *
     * @return the exception to throw
     */
    Throwable newException() {
        Class<? extends Throwable> type = Objects.requireNonNull(exception, "a fault without an exception");
        String message = "injected by resilience.chaos.faults." + name;
        try {
            Constructor<? extends Throwable> constructor = constructor(type);
            return constructor.getParameterCount() == 1 ? constructor.newInstance(message) : constructor.newInstance();
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(message + ": cannot create " + type.getName(), ex);
        }
    }

    /** The (String) constructor, else the no-argument one. */
    private static Constructor<? extends Throwable> constructor(Class<? extends Throwable> type) {
        try {
            return type.getConstructor(String.class);
        } catch (NoSuchMethodException noMessage) {
            try {
                return type.getConstructor();
            } catch (NoSuchMethodException none) {
                throw new InvalidSettingException("exception", "needs a public constructor taking a message or "
                        + "nothing", type.getName());
            }
        }
    }
}
