package io.github.resiliencestarter.testsupport;

import java.lang.reflect.Method;
import org.springframework.boot.SpringBootVersion;

/**
 * The Spring Boot line the tests run on. The same test sources run on Boot 3 and Boot 4
 * ({@code scripts/test.sh}); the few types Boot 4 moved are named here, once, by their name on
 * each line, and loaded for the line at hand.
 */
public enum BootLine {

    /** Spring Boot 3.5.x on Spring Framework 6.2. */
    BOOT_3,

    /** Spring Boot 4.x on Spring Framework 7. */
    BOOT_4;

    /**
     * The line on the classpath.
     *
     * @return the line
     */
    public static BootLine current() {
        return SpringBootVersion.getVersion().startsWith("3.") ? BOOT_3 : BOOT_4;
    }

    /**
     * Loads the class this line names.
     *
     * @param boot3Name its name on Boot 3
     * @param boot4Name its name on Boot 4
     * @return the class of the current line
     */
    public static Class<?> type(String boot3Name, String boot4Name) {
        String name = current() == BOOT_3 ? boot3Name : boot4Name;
        try {
            return Class.forName(name, false, BootLine.class.getClassLoader());
        } catch (ClassNotFoundException ex) {
            throw new IllegalStateException(name + " is not on the test classpath", ex);
        }
    }

    /**
     * Boot's DataSource auto-configuration.
     *
     * @return the class
     */
    public static Class<?> dataSourceAutoConfiguration() {
        return type("org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration");
    }

    /**
     * Boot's JDBC transaction manager auto-configuration.
     *
     * @return the class
     */
    public static Class<?> dataSourceTransactionManagerAutoConfiguration() {
        return type("org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration");
    }

    /**
     * Boot's Redis auto-configuration.
     *
     * @return the class
     */
    public static Class<?> redisAutoConfiguration() {
        return type("org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
                "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration");
    }

    /**
     * The starter's health auto-configuration for this line.
     *
     * @return the class
     */
    public static Class<?> starterHealthAutoConfiguration() {
        return type("io.github.resiliencestarter.autoconfigure.boot3.Boot3HealthAutoConfiguration",
                "io.github.resiliencestarter.autoconfigure.boot4.Boot4HealthAutoConfiguration");
    }

    /**
     * The starter's HTTP client customizers for this line.
     *
     * @return the class
     */
    public static Class<?> starterHttpClientsAutoConfiguration() {
        return type("io.github.resiliencestarter.autoconfigure.boot3.Boot3HttpClientsAutoConfiguration",
                "io.github.resiliencestarter.autoconfigure.boot4.Boot4HttpClientsAutoConfiguration");
    }

    /**
     * Asks a health indicator of either line for its status.
     *
     * @param indicator a Boot 3 or Boot 4 {@code HealthIndicator}
     * @return the status code, e.g. {@code UP}
     */
    public static String healthStatus(Object indicator) {
        try {
            Method health = indicator.getClass().getMethod("health");
            health.setAccessible(true);
            Object result = health.invoke(indicator);
            Object status = result.getClass().getMethod("getStatus").invoke(result);
            return (String) status.getClass().getMethod("getCode").invoke(status);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException("not a health indicator: " + indicator, ex);
        }
    }
}
