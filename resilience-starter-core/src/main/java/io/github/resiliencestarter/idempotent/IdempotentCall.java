package io.github.resiliencestarter.idempotent;

import java.lang.reflect.Type;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Everything the executor needs to know about one idempotent call. Build it with
 * {@link #builder(String, IdempotencyConfig)} from the raw inputs (client key, caller scope, what
 * identifies the request): the engine validates the key, assembles the stored key and computes the
 * fingerprint, so every adapter does it the same way.
 *
 * @param operation the operation name, for errors and metrics
 * @param storedKey the key as stored (see {@link IdempotencyKeys#storedKey})
 * @param fingerprint the request fingerprint, {@code ""} when the payload is not checked
 * @param returnType the method's generic return type ({@code void.class} for none)
 * @param config the settings
 */
public record IdempotentCall(String operation, String storedKey, String fingerprint, Type returnType,
        IdempotencyConfig config) {

    /**
     * Starts a call of {@code operation}.
     *
     * @param operation the operation name (business type)
     * @param config the settings
     * @return a builder
     */
    public static Builder builder(String operation, IdempotencyConfig config) {
        return new Builder(operation, config);
    }

    /** Builds an {@link IdempotentCall} from raw inputs. */
    public static final class Builder {

        private final String operation;

        private final IdempotencyConfig config;

        private @Nullable String key;

        private Supplier<String> scope = () -> "";

        private String fingerprint = "";

        private Type returnType = Object.class;

        private Builder(String operation, IdempotencyConfig config) {
            this.operation = Objects.requireNonNull(operation, "operation");
            this.config = Objects.requireNonNull(config, "config");
        }

        /**
         * @param value the client's idempotency key, validated by {@link #build()}
         * @return this builder
         */
        public Builder key(@Nullable String value) {
            this.key = value;
            return this;
        }

        /**
         * @param value the caller's scope (a principal name), or empty for none
         * @return this builder
         */
        public Builder scope(String value) {
            return scopeFrom(() -> value);
        }

        /**
         * @param value names the caller's scope when the call is built, after the key was found
         *     valid (so a malformed key is reported before a missing authentication)
         * @return this builder
         */
        public Builder scopeFrom(Supplier<String> value) {
            this.scope = Objects.requireNonNull(value, "scope");
            return this;
        }

        /**
         * Checks duplicates against a fingerprint of {@code value}; without this call the payload is
         * not checked.
         *
         * @param value what identifies the request (the arguments, or an expression's value)
         * @return this builder
         */
        public Builder fingerprintOf(@Nullable Object value) {
            this.fingerprint = Fingerprints.of(value, operation);
            return this;
        }

        /**
         * @param value the method's generic return type; {@code Object} when not given
         * @return this builder
         */
        public Builder returnType(Type value) {
            this.returnType = Objects.requireNonNull(value, "returnType");
            return this;
        }

        /**
         * Validates the key and builds the call.
         *
         * @return the call
         * @throws IdempotencyKeyException when the key is missing or malformed
         */
        public IdempotentCall build() {
            String valid = IdempotencyKeys.validate(key);
            String scopeName = scope.get();
            return new IdempotentCall(operation, IdempotencyKeys.storedKey(config.keyPrefix(), operation,
                    scopeName == null ? "" : scopeName, valid),
                    fingerprint, returnType, config);
        }
    }
}
