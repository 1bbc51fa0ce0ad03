package io.github.resiliencestarter.autoconfigure.idempotent;

import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.redis.RedisIdempotencyStore;
import io.github.resiliencestarter.testsupport.RealServers;
import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code @Idempotent} over HTTP on a real Redis. */
@SpringBootTest(classes = IdempotencyWebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "resilience.idempotent.store=redis")
class RedisIdempotentWebTest extends IdempotentWebContractTest {

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RealServers.registerRedis(registry);
    }

    @Autowired
    private IdempotencyStore store;

    @Autowired
    private org.springframework.data.redis.connection.RedisConnectionFactory redisConnectionFactory;

    @Override
    protected void corruptResponse(String storedKey) {
        // a completed record's response follows its seventh line
        String record = redis().opsForValue().get(storedKey);
        int start = 0;
        for (int line = 0; line < 7; line++) {
            start = record.indexOf('\n', start) + 1;
        }
        redis().opsForValue().setIfPresent(storedKey, record.substring(0, start) + "garbage{not json");
    }

    @Override
    protected void corruptStatus(String storedKey) {
        String record = redis().opsForValue().get(storedKey);
        redis().opsForValue().setIfPresent(storedKey, "garbage" + record.substring(1));
    }

    private org.springframework.data.redis.core.StringRedisTemplate redis() {
        org.springframework.data.redis.core.StringRedisTemplate template =
                new org.springframework.data.redis.core.StringRedisTemplate(redisConnectionFactory);
        template.afterPropertiesSet();
        return template;
    }

    @Test
    void theRedisStoreIsInUse() {
        assertThat(store).isInstanceOf(RedisIdempotencyStore.class);
    }
}
