package io.github.resiliencestarter.autoconfigure.idempotent;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What a Lettuce connection factory connects to. A class of its own so that Lettuce's factory is
 * loaded only when Lettuce is on the classpath.
 */
final class LettuceTopology {

    private LettuceTopology() {
    }

    /**
     * @param factory the application's connection factory
     * @return whether it is Lettuce's, finding its master through Redis Sentinel
     */
    static boolean isSentinel(RedisConnectionFactory factory) {
        return factory instanceof LettuceConnectionFactory lettuce && lettuce.isRedisSentinelAware();
    }
}
