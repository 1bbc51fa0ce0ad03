package io.github.resiliencestarter.autoconfigure.loadbalancer;

/** Hears each instance left out of a retry attempt's choice, for metrics. */
@FunctionalInterface
public interface AvoidedInstanceListener {

    /** Hears nothing. */
    AvoidedInstanceListener NONE = (serviceId, instance) -> {
    };

    /**
     * An instance that failed an earlier attempt was left out of this attempt's choice.
     *
     * @param serviceId the service called
     * @param instance the instance avoided, as {@code host:port}
     */
    void avoided(String serviceId, String instance);
}
