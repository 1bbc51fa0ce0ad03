package io.github.resiliencestarter.benchmarks.growth;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** What the growth measurements share: the servers from the environment and realistic record contents. */
final class GrowthEnv {

    /** The start of every JSON body; the order number follows, zero-padded to 12 digits. */
    static final String JSON_HEAD = "{\"orderId\":\"";

    private static final String JSON_FIELDS = "\",\"status\":\"ACCEPTED\",\"amount\":\"1234.56\",\"currency\":\"EUR\","
            + "\"customer\":\"c-42\",\"items\":3,\"note\":\"";

    private GrowthEnv() {
    }

    static String required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(variable + " is not set: run scripts/growth.sh, which starts the servers");
        }
        return value;
    }

    /**
     * The rest of an order's JSON body after its 12-digit number, exactly {@code length} characters
     * (ASCII, so also bytes): a few order fields when they fit, padded in a note field so every body
     * has the requested size.
     */
    static String jsonTail(int length) {
        String fields = length >= JSON_FIELDS.length() + 2 ? JSON_FIELDS : "\",\"n\":\"";
        int pad = length - fields.length() - 2;
        if (pad < 0) {
            throw new IllegalArgumentException("a JSON body needs at least " + (JSON_HEAD.length() + 21) + " bytes");
        }
        return fields + "x".repeat(pad) + "\"}";
    }

    /** An order's JSON body of exactly {@code length} bytes. */
    static String payload(long orderId, int length) {
        String head = JSON_HEAD + String.format("%012d", orderId);
        return head + jsonTail(length - head.length());
    }

    /** A SHA-256 in hex, the shape of the request fingerprint the engine stores. */
    static String fingerprint(String seed) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(seed.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * A started connection factory on the Redis server of {@code RESILIENCE_TEST_REDIS_URL}.
     *
     * @return the factory; destroy it when done
     */
    static LettuceConnectionFactory redis() {
        URI uri = URI.create(required("RESILIENCE_TEST_REDIS_URL"));
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(uri.getHost(), uri.getPort()));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    static StringRedisTemplate template(LettuceConnectionFactory factory) {
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }
}
