package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.core.InvalidSettingException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Immutable settings of an idempotent operation. Build one with {@link #custom()}.
 */
public final class IdempotencyConfig {

    /** How long a completed record is kept when nothing else is configured. */
    public static final Duration DEFAULT_TTL = Duration.ofHours(24);

    /** How long a claim holds without a deadline, before heartbeats extend it. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    /** Added to the remaining deadline when the lease is sized to it. */
    public static final Duration DEFAULT_LEASE_MARGIN = Duration.ofSeconds(2);

    /** Default time a failing settlement (completion or release) is retried. */
    public static final Duration DEFAULT_SETTLE_LIMIT = Duration.ofSeconds(30);

    /** Default longest keep of an asynchronous call's lease when it has no deadline. */
    public static final Duration DEFAULT_KEEP_LIMIT = Duration.ofMinutes(10);

    /** How long a duplicate waits for the first execution at most. */
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);

    /** Largest encoded response stored for replay. */
    public static final int DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024;

    /** Namespace of stored keys. */
    public static final String DEFAULT_KEY_PREFIX = "idem:";

    private static final IdempotencyConfig DEFAULTS = custom().build();

    private final Duration ttl;

    private final Duration lease;

    private final Duration leaseMargin;

    private final Duration settleLimit;

    private final Duration keepLimit;

    private final InProgressStrategy onInProgress;

    private final ClientErrorHandling onClientError;

    private final FallbackAnswerHandling onFallbackAnswer;

    private final Duration waitTimeout;

    private final boolean failOpen;

    private final int maxResponseBytes;

    private final String keyPrefix;

    private final List<Class<? extends Throwable>> cacheableExceptions;

    private final Set<String> excludedFields;

    private IdempotencyConfig(Builder builder) {
        this.ttl = builder.ttl;
        this.lease = builder.lease;
        this.leaseMargin = builder.leaseMargin;
        this.settleLimit = builder.settleLimit;
        this.keepLimit = builder.keepLimit;
        this.onInProgress = builder.onInProgress;
        this.onClientError = builder.onClientError;
        this.onFallbackAnswer = builder.onFallbackAnswer;
        this.waitTimeout = builder.waitTimeout;
        this.failOpen = builder.failOpen;
        this.maxResponseBytes = builder.maxResponseBytes;
        this.keyPrefix = builder.keyPrefix;
        this.cacheableExceptions = List.copyOf(builder.cacheableExceptions);
        this.excludedFields = Set.copyOf(builder.excludedFields);
    }

    /**
     * The defaults.
     *
     * @return the default settings
     */
    public static IdempotencyConfig ofDefaults() {
        return DEFAULTS;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder
     */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * A builder starting from {@code base}.
     *
     * @param base the settings to copy
     * @return a new builder
     */
    public static Builder from(IdempotencyConfig base) {
        return new Builder().ttl(base.ttl).lease(base.lease).leaseMargin(base.leaseMargin)
                .settleLimit(base.settleLimit).keepLimit(base.keepLimit)
                .onInProgress(base.onInProgress).onClientError(base.onClientError).onFallbackAnswer(base.onFallbackAnswer)
                .waitTimeout(base.waitTimeout).failOpen(base.failOpen)
                .maxResponseBytes(base.maxResponseBytes).keyPrefix(base.keyPrefix)
                .cacheableExceptions(base.cacheableExceptions).excludedFields(base.excludedFields);
    }

    /** @return how long a completed record is kept */
    public Duration ttl() {
        return ttl;
    }

    /** @return how long a claim holds without a deadline */
    public Duration lease() {
        return lease;
    }

    /** @return added to the remaining deadline when the lease is sized to it */
    public Duration leaseMargin() {
        return leaseMargin;
    }

    /** @return how long a completion or release the store refused is tried again, the lease kept meanwhile */
    public Duration settleLimit() {
        return settleLimit;
    }

    /** @return how long the lease of work that has not returned is kept at most, whatever its deadline */
    public Duration keepLimit() {
        return keepLimit;
    }

    /** @return what a duplicate does while the first runs */
    public InProgressStrategy onInProgress() {
        return onInProgress;
    }

    /**
     * What a failure the client caused does to the key.
     *
     * @return {@link ClientErrorHandling#REPLAY} or {@link ClientErrorHandling#RELEASE}
     */
    public ClientErrorHandling onClientError() {
        return onClientError;
    }

    /**
     * What an answer a fallback produced inside the execution does to the key.
     *
     * @return RELEASE (the default) or STORE
     */
    public FallbackAnswerHandling onFallbackAnswer() {
        return onFallbackAnswer;
    }

    /** @return how long a duplicate waits at most */
    public Duration waitTimeout() {
        return waitTimeout;
    }

    /** @return whether the method runs without idempotency when the store is down */
    public boolean failOpen() {
        return failOpen;
    }

    /** @return the largest encoded response stored for replay */
    public int maxResponseBytes() {
        return maxResponseBytes;
    }

    /** @return the namespace of stored keys */
    public String keyPrefix() {
        return keyPrefix;
    }

    /** @return exception types whose failure is stored and replayed instead of releasing the key */
    public List<Class<? extends Throwable>> cacheableExceptions() {
        return cacheableExceptions;
    }

    /**
     * Names of fields left out of stored responses, at any depth (a password echoed by a creation
     * response): a replay has them empty.
     *
     * @return the field names
     */
    public Set<String> excludedFields() {
        return excludedFields;
    }

    /** Builds an {@link IdempotencyConfig}; every setter validates its argument at once. */
    public static final class Builder {

        private Duration ttl = DEFAULT_TTL;

        private Duration lease = DEFAULT_LEASE;

        private Duration leaseMargin = DEFAULT_LEASE_MARGIN;

        private Duration settleLimit = DEFAULT_SETTLE_LIMIT;

        private Duration keepLimit = DEFAULT_KEEP_LIMIT;

        private InProgressStrategy onInProgress = InProgressStrategy.WAIT;

        private ClientErrorHandling onClientError = ClientErrorHandling.REPLAY;

        private FallbackAnswerHandling onFallbackAnswer = FallbackAnswerHandling.RELEASE;

        private Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;

        private boolean failOpen;

        private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

        private String keyPrefix = DEFAULT_KEY_PREFIX;

        private List<Class<? extends Throwable>> cacheableExceptions = List.of();

        private Set<String> excludedFields = Set.of();

        private Builder() {
        }

        /**
         * @param value how long a completed record is kept; positive
         * @return this builder
         */
        public Builder ttl(Duration value) {
            this.ttl = positive(value, "ttl");
            return this;
        }

        /**
         * @param value how long a claim holds without a deadline; positive
         * @return this builder
         */
        public Builder lease(Duration value) {
            this.lease = positive(value, "lease");
            return this;
        }

        /**
         * @param value added to the remaining deadline for the lease; not negative
         * @return this builder
         */
        public Builder leaseMargin(Duration value) {
            if (value == null || value.isNegative()) {
                throw new InvalidSettingException("leaseMargin", "must not be negative", value);
            }
            this.leaseMargin = value;
            return this;
        }

        /**
         * @param value how long a completion or release the store refused is tried again; positive
         * @return this builder
         */
        public Builder settleLimit(Duration value) {
            this.settleLimit = positive(value, "settleLimit");
            return this;
        }

        /**
         * @param value how long the lease of work that has not returned is kept at most, blocking or
         *     asynchronous, whatever its deadline; positive
         * @return this builder
         */
        public Builder keepLimit(Duration value) {
            this.keepLimit = positive(value, "keepLimit");
            return this;
        }

        /**
         * @param value REPLAY (keep a client error for duplicates) or RELEASE
         * @return this builder
         */
        public Builder onClientError(ClientErrorHandling value) {
            if (value == null || value == ClientErrorHandling.DEFAULT) {
                throw new InvalidSettingException("onClientError", "must be REPLAY or RELEASE", value);
            }
            this.onClientError = value;
            return this;
        }

        /**
         * @param value RELEASE (a fallback's answer releases the key) or STORE (it is kept and replayed)
         * @return this builder
         */
        public Builder onFallbackAnswer(FallbackAnswerHandling value) {
            if (value == null || value == FallbackAnswerHandling.DEFAULT) {
                throw new InvalidSettingException("onFallbackAnswer", "must be RELEASE or STORE", value);
            }
            this.onFallbackAnswer = value;
            return this;
        }

        /**
         * @param value WAIT or REJECT
         * @return this builder
         */
        public Builder onInProgress(InProgressStrategy value) {
            if (value == null || value == InProgressStrategy.DEFAULT) {
                throw new InvalidSettingException("onInProgress", "must be WAIT or REJECT", value);
            }
            this.onInProgress = value;
            return this;
        }

        /**
         * @param value how long a duplicate waits at most; not negative
         * @return this builder
         */
        public Builder waitTimeout(Duration value) {
            if (value == null || value.isNegative()) {
                throw new InvalidSettingException("waitTimeout", "must not be negative", value);
            }
            this.waitTimeout = value;
            return this;
        }

        /**
         * @param value {@code true} to run without idempotency when the store is down
         * @return this builder
         */
        public Builder failOpen(boolean value) {
            this.failOpen = value;
            return this;
        }

        /**
         * @param value the largest encoded response stored; positive
         * @return this builder
         */
        public Builder maxResponseBytes(int value) {
            if (value < 1) {
                throw new InvalidSettingException("maxResponseBytes", "must be positive", value);
            }
            this.maxResponseBytes = value;
            return this;
        }

        /**
         * @param value the namespace of stored keys, at most 32 characters
         * @return this builder
         */
        public Builder keyPrefix(String value) {
            Objects.requireNonNull(value, "keyPrefix");
            if (value.length() > IdempotencyKeys.MAX_PREFIX_LENGTH) {
                throw new InvalidSettingException("keyPrefix", "must be at most " + IdempotencyKeys.MAX_PREFIX_LENGTH
                        + " characters long", value);
            }
            this.keyPrefix = value;
            return this;
        }

        /**
         * @param value exception types stored and replayed instead of releasing the key
         * @return this builder
         */
        public Builder cacheableExceptions(List<Class<? extends Throwable>> value) {
            this.cacheableExceptions = List.copyOf(value);
            return this;
        }

        /**
         * @param value names of fields left out of stored responses, at any depth
         * @return this builder
         */
        public Builder excludedFields(Collection<String> value) {
            this.excludedFields = Set.copyOf(value);
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the settings
         */
        public IdempotencyConfig build() {
            return new IdempotencyConfig(this);
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isZero() || value.isNegative()) {
                throw new InvalidSettingException(name, "must be positive", value);
            }
            return value;
        }
    }
}
