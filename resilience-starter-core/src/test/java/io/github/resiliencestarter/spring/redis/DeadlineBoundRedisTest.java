package io.github.resiliencestarter.spring.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import io.github.resiliencestarter.testsupport.StoreFixtures;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Rule T-P4 for Redis, on a real server: no command is sent once the budget is spent. */
class DeadlineBoundRedisTest {

    private final StringRedisTemplate redis = template();

    private static StringRedisTemplate template() {
        RedisConnectionFactory bound = (RedisConnectionFactory) new DeadlineBoundRedisConnectionFactoryPostProcessor()
                .postProcessAfterInitialization(StoreFixtures.redisConnectionFactory(), "redisConnectionFactory");
        StringRedisTemplate template = new StringRedisTemplate(bound);
        template.afterPropertiesSet();
        return template;
    }

    @Test
    void TP4_aSpentBudgetSendsNoRedisCommand() throws Exception {
        String key = "tp4:" + System.nanoTime();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofMillis(1))))) {
            Thread.sleep(5);
            assertThatThrownBy(() -> redis.opsForValue().set(key, "late")).isInstanceOf(DeadlineExceededException.class);
        }
        assertThat(redis.opsForValue().get(key)).isNull();
    }

    @Test
    void commandsWithinTheBudgetOrWithoutOneRunNormally() {
        String key = "tp4-ok:" + System.nanoTime();
        try (TraceScope scope = TraceContextHolder.open(TraceContext.empty()
                .withDeadline(Deadline.after(Duration.ofSeconds(5))))) {
            redis.opsForValue().set(key, "in time", Duration.ofMinutes(1));
        }
        assertThat(redis.opsForValue().get(key)).isEqualTo("in time");
    }
}
