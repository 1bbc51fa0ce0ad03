package io.github.resiliencestarter.idempotent;

import io.github.resiliencestarter.idempotent.contract.IdempotencyStoreContractTest;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.testsupport.DisposableRedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The same contract, unchanged, on a three-master Redis Cluster: every script touches one key, so
 * each runs on the node that owns the key's slot.
 */
class RedisClusterStoreContractTest extends IdempotencyStoreContractTest {

    private static DisposableRedisCluster cluster;

    private static LettuceConnectionFactory factory;

    private static IdempotencyStore store;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = DisposableRedisCluster.start();
        factory = new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.nodes()));
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        store = new RedisIdempotencyStore(template);
    }

    @AfterAll
    static void stopCluster() {
        if (factory != null) {
            factory.destroy();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }
}
