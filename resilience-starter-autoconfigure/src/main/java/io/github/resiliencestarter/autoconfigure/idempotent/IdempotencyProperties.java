package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.autoconfigure.PropertyChecks;
import io.github.resiliencestarter.context.TimeSource;
import io.github.resiliencestarter.core.InvalidSettingException;
import io.github.resiliencestarter.idempotent.ClientErrorHandling;
import io.github.resiliencestarter.idempotent.FallbackAnswerHandling;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.InProgressStrategy;
import io.github.resiliencestarter.idempotent.PayloadProtection;
import io.github.resiliencestarter.idempotent.jdbc.JdbcIdempotencyStore;
import io.github.resiliencestarter.idempotent.jdbc.JdbcTableName;
import io.github.resiliencestarter.idempotent.redis.RedisReplicaAcks;
import io.github.resiliencestarter.idempotent.support.AesGcmPayloadProtection;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import io.github.resiliencestarter.idempotent.support.NearCacheIdempotencyStore;
import io.github.resiliencestarter.rollout.EnforcementMode;
import io.github.resiliencestarter.rollout.RolloutPolicy;
import io.github.resiliencestarter.spring.idempotent.RequestHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.ClassUtils;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/** {@code @Idempotent} settings ({@code resilience.idempotent.*}). */
@ConfigurationProperties("resilience.idempotent")
public class IdempotencyProperties implements Validator {

    /** The default of {@code max-request-bytes}: 1 MiB. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;


    /** Which store holds the records. */
    public enum StoreType {

        /** Redis when a RedisConnectionFactory exists, else JDBC when a DataSource exists, else memory. */
        AUTO,

        /** Redis through Spring Data Redis. */
        REDIS,

        /** A table on the application's DataSource. */
        JDBC,

        /** This JVM's memory: one node only, lost on restart. */
        MEMORY
    }

    /** Whether @Idempotent is applied. */
    private boolean enabled = true;

    /** Which store holds the records: AUTO, REDIS, JDBC or MEMORY. */
    private StoreType store = StoreType.AUTO;

    /** How long a completed record is kept; longer than the longest window in which clients retry. */
    private Duration ttl = IdempotencyConfig.DEFAULT_TTL;

    /** How long a claim holds without a deadline; heartbeats extend it while the call runs. */
    private Duration lease = IdempotencyConfig.DEFAULT_LEASE;

    /** Added to the remaining deadline when the lease is sized to it. */
    private Duration leaseMargin = IdempotencyConfig.DEFAULT_LEASE_MARGIN;

    /**
     * How long a completion or release the store refused is tried again (with back-off, the lease
     * kept meanwhile); after it, a completion is recorded as "executed, outcome unknown".
     */
    private Duration settleLimit = IdempotencyConfig.DEFAULT_SETTLE_LIMIT;

    /** How long the lease of work that has not returned is kept at most, blocking or asynchronous, whatever its deadline. */
    private Duration keepLimit = IdempotencyConfig.DEFAULT_KEEP_LIMIT;

    /** What a duplicate does while the first call runs: WAIT or REJECT. */
    private InProgressStrategy onInProgress = InProgressStrategy.WAIT;

    /** What a failure the client caused (4xx) does to its key: REPLAY it to duplicates, or RELEASE the key. */
    private ClientErrorHandling onClientError = ClientErrorHandling.REPLAY;

    /**
     * What an answer produced by a fallback inside the execution (the method's @Retry or
     * @CircuitBreaker fallback, or one of a call it makes) does to its key: RELEASE it, so the
     * client's retry runs the method for real, or STORE the answer and replay it.
     */
    private FallbackAnswerHandling onFallbackAnswer = FallbackAnswerHandling.RELEASE;

    /** How long a duplicate waits for the first call at most (also bounded by its deadline). */
    private Duration waitTimeout = IdempotencyConfig.DEFAULT_WAIT_TIMEOUT;

    /** Whether to run the method without idempotency when the store is down (default: refuse with 503). */
    private boolean failOpen;

    /** Largest encoded response kept for replay; larger ones complete but cannot be replayed. */
    private int maxResponseBytes = IdempotencyConfig.DEFAULT_MAX_RESPONSE_BYTES;

    /**
     * Largest request body buffered for a keyed request where the starter reads the body itself (the
     * gateway's IdempotencyKey filter); a larger one is refused with 413 before anything is claimed.
     */
    private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

    /** Namespace of stored keys. */
    private String keyPrefix = IdempotencyConfig.DEFAULT_KEY_PREFIX;

    /** Request header carrying the key when @Idempotent sets no key expression. */
    private String keyHeader = RequestHeaders.IDEMPOTENCY_KEY;

    /**
     * Response headers a replayed ResponseEntity keeps, besides Content-Type, Content-Language,
     * Location, ETag, Last-Modified and Cache-Control. Cookies, credentials, hop-by-hop, Date,
     * trace and budget headers are never kept.
     */
    private List<String> replayHeaders = new ArrayList<>();

    /** Extra replayed response headers for one @Idempotent name, keyed by that name. */
    private Map<String, List<String>> replayHeadersByName = new LinkedHashMap<>();

    /**
     * Operation names whose calls without the key header run unprotected (counted as
     * "unprotected") instead of answering 400, as @Idempotent(required = false) does: for endpoints
     * whose existing clients send no key yet.
     */
    private List<String> keyOptional = new ArrayList<>();

    /** Names of fields left out of every stored response, at any depth (a replay has them empty). */
    private List<String> excludeFields = new ArrayList<>();

    /**
     * ENFORCE: duplicates are replayed, waited for or refused. OBSERVE: the first call of a key still
     * claims and records, but a duplicate runs and is counted as what enforcement would have done
     * (would_replay, would_wait, would_reject, would_422). Live (docs/rollout.md).
     */
    private EnforcementMode mode = EnforcementMode.ENFORCE;

    /**
     * In mode ENFORCE, the share of keys (0 to 100 %) whose duplicates are enforced, chosen by a
     * stable hash of the key, so a key gets the same decision on every node; the others are observed.
     */
    private double rollout = 100;

    /** Mode and rollout per @Idempotent name, over the two above. */
    private Map<String, Instance> instances = new LinkedHashMap<>();

    public EnforcementMode getMode() {
        return mode;
    }

    public void setMode(EnforcementMode mode) {
        this.mode = mode;
    }

    public double getRollout() {
        return rollout;
    }

    public void setRollout(double rollout) {
        this.rollout = rollout;
    }

    public Map<String, Instance> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, Instance> instances) {
        this.instances = instances;
    }

    /**
     * The rollout of names without one of their own.
     *
     * @return the policy
     * @throws InvalidSettingException when the share is not a percentage
     */
    public RolloutPolicy defaultRollout() {
        return new RolloutPolicy(mode, rollout);
    }

    /**
     * The rollout of each name that sets one, its unset values taken from the defaults.
     *
     * @return the policies by name
     * @throws InvalidSettingException when a share is not a percentage
     */
    public Map<String, RolloutPolicy> namedRollouts() {
        Map<String, RolloutPolicy> named = new LinkedHashMap<>();
        instances.forEach((name, instance) -> named.put(name, instance.rollout(this)));
        return named;
    }

    /** The settings of one @Idempotent name. */
    public static class Instance {

        /** ENFORCE or OBSERVE for this name; unset: resilience.idempotent.mode. */
        private @Nullable EnforcementMode mode;

        /** The share enforced for this name, 0 to 100; unset: resilience.idempotent.rollout. */
        private @Nullable Double rollout;

        public @Nullable EnforcementMode getMode() {
            return mode;
        }

        public void setMode(@Nullable EnforcementMode mode) {
            this.mode = mode;
        }

        public @Nullable Double getRollout() {
            return rollout;
        }

        public void setRollout(@Nullable Double rollout) {
            this.rollout = rollout;
        }

        RolloutPolicy rollout(IdempotencyProperties defaults) {
            EnforcementMode own = mode;
            Double share = rollout;
            return new RolloutPolicy(own != null ? own : defaults.getMode(),
                    share != null ? share : defaults.getRollout());
        }
    }

    public List<String> getExcludeFields() {
        return excludeFields;
    }

    public void setExcludeFields(List<String> excludeFields) {
        this.excludeFields = excludeFields;
    }

    public List<String> getKeyOptional() {
        return keyOptional;
    }

    public void setKeyOptional(List<String> keyOptional) {
        this.keyOptional = keyOptional;
    }

    private final Jdbc jdbc = new Jdbc();

    private final NearCache nearCache = new NearCache();

    private final Redis redis = new Redis();

    private final Encryption encryption = new Encryption();

    public List<String> getReplayHeaders() {
        return replayHeaders;
    }

    public void setReplayHeaders(List<String> replayHeaders) {
        this.replayHeaders = replayHeaders;
    }

    public Map<String, List<String>> getReplayHeadersByName() {
        return replayHeadersByName;
    }

    public void setReplayHeadersByName(Map<String, List<String>> replayHeadersByName) {
        this.replayHeadersByName = replayHeadersByName;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public StoreType getStore() {
        return store;
    }

    public void setStore(StoreType store) {
        this.store = store;
    }

    public Duration getTtl() {
        return ttl;
    }

    public void setTtl(Duration ttl) {
        this.ttl = ttl;
    }

    public Duration getLease() {
        return lease;
    }

    public void setLease(Duration lease) {
        this.lease = lease;
    }

    public Duration getLeaseMargin() {
        return leaseMargin;
    }

    public void setLeaseMargin(Duration leaseMargin) {
        this.leaseMargin = leaseMargin;
    }

    public Duration getSettleLimit() {
        return settleLimit;
    }

    public void setSettleLimit(Duration settleLimit) {
        this.settleLimit = settleLimit;
    }

    public Duration getKeepLimit() {
        return keepLimit;
    }

    public void setKeepLimit(Duration keepLimit) {
        this.keepLimit = keepLimit;
    }

    public ClientErrorHandling getOnClientError() {
        return onClientError;
    }

    public void setOnClientError(ClientErrorHandling onClientError) {
        this.onClientError = onClientError;
    }

    public FallbackAnswerHandling getOnFallbackAnswer() {
        return onFallbackAnswer;
    }

    public void setOnFallbackAnswer(FallbackAnswerHandling onFallbackAnswer) {
        this.onFallbackAnswer = onFallbackAnswer;
    }

    public InProgressStrategy getOnInProgress() {
        return onInProgress;
    }

    public void setOnInProgress(InProgressStrategy onInProgress) {
        this.onInProgress = onInProgress;
    }

    public Duration getWaitTimeout() {
        return waitTimeout;
    }

    public void setWaitTimeout(Duration waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    public boolean isFailOpen() {
        return failOpen;
    }

    public void setFailOpen(boolean failOpen) {
        this.failOpen = failOpen;
    }

    public int getMaxRequestBytes() {
        return maxRequestBytes;
    }

    public void setMaxRequestBytes(int maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    public int getMaxResponseBytes() {
        return maxResponseBytes;
    }

    public void setMaxResponseBytes(int maxResponseBytes) {
        this.maxResponseBytes = maxResponseBytes;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public String getKeyHeader() {
        return keyHeader;
    }

    public void setKeyHeader(String keyHeader) {
        this.keyHeader = keyHeader;
    }

    public Jdbc getJdbc() {
        return jdbc;
    }

    public Redis getRedis() {
        return redis;
    }

    public Encryption getEncryption() {
        return encryption;
    }

    public NearCache getNearCache() {
        return nearCache;
    }

    /**
     * The engine settings these properties describe.
     *
     * @return the settings
     */
    public IdempotencyConfig toConfig() {
        return IdempotencyConfig.custom().ttl(ttl).lease(lease).leaseMargin(leaseMargin).settleLimit(settleLimit)
                .keepLimit(keepLimit).onInProgress(onInProgress).onClientError(onClientError)
                .onFallbackAnswer(onFallbackAnswer).excludedFields(excludeFields)
                .waitTimeout(waitTimeout).failOpen(failOpen).maxResponseBytes(maxResponseBytes).keyPrefix(keyPrefix)
                .build();
    }

    @Override
    public boolean supports(Class<?> type) {
        return IdempotencyProperties.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        PropertyChecks checks = PropertyChecks.reportingTo(errors);
        checks.check("", this::toConfig);
        checks.check("", this::defaultRollout);
        instances.forEach((name, instance) -> checks.check("instances[" + name + "].",
                () -> instance.rollout(this)));
        if (maxRequestBytes < 0) {
            errors.rejectValue("maxRequestBytes", "negative", "must not be negative");
        }
        checks.check("jdbc.", () -> JdbcTableName.check(jdbc.getTable()));
        checks.check("redis.", Map.of("replicas", "replica-acks", "timeout", "replica-ack-timeout"),
                () -> redis.toReplicaAcks(false));
        checks.check("encryption.", Map.of("activeKey", "active-key"), encryption::toProtection);
        if (redis.asksForAcks() && !ClassUtils.isPresent(Redis.LETTUCE, null)) {
            errors.rejectValue("redis.replica-acks", "missing", "needs Lettuce (Spring Boot's default Redis "
                    + "client): the acknowledgement is Redis' WAIT, which Spring Data Redis sends only through it");
        }
        if (nearCache.isEnabled()) {
            if (!ClassUtils.isPresent(NearCache.CAFFEINE, null)) {
                errors.rejectValue("near-cache.enabled", "missing", "needs Caffeine on the classpath: add "
                        + "com.github.ben-manes.caffeine:caffeine (its version is managed by Spring Boot)");
            } else {
                checks.check("near-cache.", () -> nearCache.wrap(new InMemoryIdempotencyStore()));
            }
        }
    }

    /**
     * Authenticated encryption of stored responses (AES-GCM): off while no key is configured. A
     * replay needs the first response, so the store keeps it for the TTL; sealed, it is unreadable
     * to whoever can read the store, and bound to its record.
     */
    public static class Encryption {

        /** AES keys (16, 24 or 32 bytes, Base64) by id; a record names the key that sealed it. */
        private Map<String, String> keys = new LinkedHashMap<>();

        /** The id of the key new records are sealed with; rotate by adding a key and naming it here. */
        private @Nullable String activeKey;

        /**
         * Read stored responses that are not sealed (written before encryption was switched on) or
         * sealed by an earlier version (bound to the record key alone). Off, they are refused as
         * unreadable and nothing runs, so whoever can write to the store cannot plant a replay; on for
         * one TTL after switching encryption on or upgrading.
         */
        private boolean acceptLegacy;

        public boolean isAcceptLegacy() {
            return acceptLegacy;
        }

        public void setAcceptLegacy(boolean acceptLegacy) {
            this.acceptLegacy = acceptLegacy;
        }

        public Map<String, String> getKeys() {
            return keys;
        }

        public void setKeys(Map<String, String> keys) {
            this.keys = keys;
        }

        public @Nullable String getActiveKey() {
            return activeKey;
        }

        public void setActiveKey(@Nullable String activeKey) {
            this.activeKey = activeKey;
        }

        /**
         * The protection these properties describe.
         *
         * @return AES-GCM with the keys, or none when no key is configured
         */
        public PayloadProtection toProtection() {
            if (keys.isEmpty()) {
                return PayloadProtection.NONE;
            }
            Map<String, byte[]> decoded = new LinkedHashMap<>();
            keys.forEach((id, base64) -> {
                try {
                    decoded.put(id, Base64.getDecoder().decode(base64.strip()));
                } catch (IllegalArgumentException ex) {
                    throw new InvalidSettingException("keys", "must be Base64", id);
                }
            });
            String active = activeKey != null ? activeKey : keys.size() == 1 ? keys.keySet().iterator().next() : null;
            if (active == null) {
                throw new InvalidSettingException("activeKey", "must name the key new records use, among "
                        + keys.keySet(), null);
            }
            return new AesGcmPayloadProtection(decoded, active, acceptLegacy);
        }
    }

    /** The Redis store. */
    public static class Redis {

        /** Default wait for replica acknowledgements. */
        public static final Duration DEFAULT_REPLICA_ACK_TIMEOUT = Duration.ofMillis(250);

        static final String LETTUCE = "io.lettuce.core.api.async.RedisAsyncCommands";

        /** The value of {@code replica-acks} that asks every replica the master lists. */
        public static final String EVERY_REPLICA = "all";

        /**
         * Replicas that must acknowledge every claim, completion and lease extension (Redis' WAIT)
         * before it counts: "all" (every replica the master lists, so whichever one a failover
         * promotes has it), a number, or 0 for none. Unset: "all" when the connection goes through
         * Redis Sentinel with Lettuce, else 0. With acknowledgement, a claim a failover could lose is
         * refused (503) instead of run, and a master left without replicas refuses every write.
         */
        private @Nullable String replicaAcks;

        /** How long the master waits for those acknowledgements. */
        private Duration replicaAckTimeout = DEFAULT_REPLICA_ACK_TIMEOUT;

        public @Nullable String getReplicaAcks() {
            return replicaAcks;
        }

        public void setReplicaAcks(@Nullable String replicaAcks) {
            this.replicaAcks = replicaAcks;
        }

        public Duration getReplicaAckTimeout() {
            return replicaAckTimeout;
        }

        public void setReplicaAckTimeout(Duration replicaAckTimeout) {
            this.replicaAckTimeout = replicaAckTimeout;
        }

        /** @return whether {@code replica-acks} is set to something else than 0 */
        boolean asksForAcks() {
            String set = replicaAcks;
            return isReplicaAcksSet() && set != null && !set.trim().equals("0");
        }

        /** @return whether {@code replica-acks} is set at all: unset, the topology decides */
        public boolean isReplicaAcksSet() {
            return replicaAcks != null && !replicaAcks.isBlank();
        }

        /**
         * The engine setting these properties describe.
         *
         * @param sentinel whether the connection goes through Redis Sentinel with Lettuce, which
         *     makes "all" the default
         * @return the acknowledgement each write waits for
         */
        public RedisReplicaAcks toReplicaAcks(boolean sentinel) {
            String set = replicaAcks;
            String value = set != null && !set.isBlank() ? set.trim() : sentinel ? EVERY_REPLICA : "0";
            if (value.equalsIgnoreCase(EVERY_REPLICA)) {
                return RedisReplicaAcks.everyReplica(replicaAckTimeout);
            }
            int replicas;
            try {
                replicas = Integer.parseInt(value);
            } catch (NumberFormatException notANumber) {
                throw new InvalidSettingException("replicas", "must be all, or a number of replicas (0 for none),",
                        value);
            }
            return replicas == 0 ? RedisReplicaAcks.NONE : new RedisReplicaAcks(replicas, replicaAckTimeout);
        }
    }

    /** The JDBC store. */
    public static class Jdbc {

        /** Default pause between purge runs. */
        public static final Duration DEFAULT_PURGE_INTERVAL = Duration.ofMinutes(1);

        /** Default rows deleted per purge statement. */
        public static final int DEFAULT_PURGE_BATCH_SIZE = 1000;

        /** Table holding the records. */
        private String table = JdbcIdempotencyStore.DEFAULT_TABLE;

        /** When to create the table: EMBEDDED databases only, ALWAYS, or NEVER. */
        private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

        /** Pause between purges of expired rows; zero or negative disables the purge job. */
        private Duration purgeInterval = DEFAULT_PURGE_INTERVAL;

        /** Rows deleted per purge statement; a run repeats until fewer are found. */
        private int purgeBatchSize = DEFAULT_PURGE_BATCH_SIZE;

        /**
         * Whether a transaction manager that cannot record completions inside its transactions (JTA,
         * another DataSource) fails the start instead of logging a warning.
         */
        private boolean requireTransactionalCompletion;

        public boolean isRequireTransactionalCompletion() {
            return requireTransactionalCompletion;
        }

        public void setRequireTransactionalCompletion(boolean requireTransactionalCompletion) {
            this.requireTransactionalCompletion = requireTransactionalCompletion;
        }

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public SchemaInitialization getInitializeSchema() {
            return initializeSchema;
        }

        public void setInitializeSchema(SchemaInitialization initializeSchema) {
            this.initializeSchema = initializeSchema;
        }

        public Duration getPurgeInterval() {
            return purgeInterval;
        }

        public void setPurgeInterval(Duration purgeInterval) {
            this.purgeInterval = purgeInterval;
        }

        public int getPurgeBatchSize() {
            return purgeBatchSize;
        }

        public void setPurgeBatchSize(int purgeBatchSize) {
            this.purgeBatchSize = purgeBatchSize;
        }
    }

    /**
     * When the starter creates its table, as Boot's {@code spring.sql.init.mode} says it for scripts.
     * The starter's own type: Boot 4 moved Boot's into {@code spring-boot-sql}, which an application
     * without JDBC (Redis on WebFlux, say) does not have, and these properties are bound in every
     * application.
     */
    public enum SchemaInitialization {

        /** Only for embedded databases (H2, HSQLDB, Derby). */
        EMBEDDED,

        /** Always. */
        ALWAYS,

        /** Never: migrations or a DBA create it. */
        NEVER
    }

    /**
     * An in-process cache of COMPLETED records in front of the store
     * ({@code resilience.idempotent.near-cache.*}): replays of a completed key are answered without
     * a store round trip. Off by default; needs Caffeine on the classpath.
     */
    public static class NearCache {

        static final String CAFFEINE = "com.github.benmanes.caffeine.cache.Caffeine";

        /** Whether completed records are cached in process. */
        private boolean enabled;

        /** Most records kept; the least recently used go first. */
        private long maximumSize = NearCacheIdempotencyStore.DEFAULT_MAXIMUM_SIZE;

        /** Longest time a record stays cached (never beyond its own expiry). */
        private Duration ttl = NearCacheIdempotencyStore.DEFAULT_TTL;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public long getMaximumSize() {
            return maximumSize;
        }

        public void setMaximumSize(long maximumSize) {
            this.maximumSize = maximumSize;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        /**
         * The store the executor uses: {@code store} itself, or the near cache in front of it.
         *
         * @param store the store (already decorated, e.g. metered)
         * @return the store to run idempotent calls on
         */
        public IdempotencyStore wrap(IdempotencyStore store) {
            return enabled ? new NearCacheIdempotencyStore(store, maximumSize, ttl, TimeSource.SYSTEM) : store;
        }
    }
}
