package io.github.resiliencestarter.testsupport;

import java.util.Properties;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/** What a Redis server has run since its start ({@code INFO commandstats}), to count a store's commands. */
public final class RedisCommandStats {

    private RedisCommandStats() {
    }

    /**
     * How often the server has run a command.
     *
     * @param server a template on the server
     * @param command the command's name, lower case ({@code evalsha}, {@code get}, {@code wait})
     * @return its calls; 0 when it never ran
     */
    public static long calls(StringRedisTemplate server, String command) {
        Properties stats = server.execute((RedisCallback<Properties>) connection ->
                connection.serverCommands().info("commandstats"));
        String line = stats == null ? null : stats.getProperty("cmdstat_" + command);
        if (line == null) {
            return 0;
        }
        int calls = line.indexOf("calls=") + "calls=".length();
        return Long.parseLong(line.substring(calls, line.indexOf(',', calls)));
    }
}
