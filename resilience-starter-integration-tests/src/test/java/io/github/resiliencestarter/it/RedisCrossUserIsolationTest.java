package io.github.resiliencestarter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.testsupport.RealServers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Per-user isolation with the Redis store (business rows in MariaDB through JPA). */
@SpringBootTest(classes = SecuredOrdersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "resilience.idempotent.store=redis")
class RedisCrossUserIsolationTest extends CrossUserIsolationContractTest {

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        RealServers.registerDataSource(registry);
        RealServers.registerRedis(registry);
    }

    @Autowired
    private IdempotencyStore store;

    @Test
    void theRedisStoreIsInUse() {
        assertThat(store).isInstanceOf(RedisIdempotencyStore.class);
    }
}
