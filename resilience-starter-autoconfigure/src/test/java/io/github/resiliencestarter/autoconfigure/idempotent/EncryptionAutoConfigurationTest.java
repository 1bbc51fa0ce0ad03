package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.support.AesGcmPayloadProtection;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code resilience.idempotent.encryption.*}: stored responses sealed with the configured key, a
 * user's password in a creation response unreadable in the store; bad keys fail the start.
 */
class EncryptionAutoConfigurationTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class))
            .withBean(Users.class);

    /** Echoes the password it was sent, as petclinic-rest's user creation does. */
    static class Users {

        private final AtomicInteger created = new AtomicInteger();

        @Idempotent(key = "#name", name = "USER_CREATE")
        public String create(String name, String password) {
            return name + ":" + password + ":" + created.incrementAndGet();
        }
    }

    private static String storedPayload(IdempotencyStore store, String name) {
        return store.find(IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, "USER_CREATE", "", name))
                .response().payload();
    }

    @Test
    void withAKeyTheStoredResponseIsSealedAndReplays() {
        runner.withPropertyValues("resilience.idempotent.encryption.keys.k1=" + KEY).run(context -> {
            Users users = context.getBean(Users.class);
            assertThat(users.create("ann", "hunter2")).isEqualTo("ann:hunter2:1");
            assertThat(users.create("ann", "hunter2")).isEqualTo("ann:hunter2:1");
            assertThat(storedPayload(context.getBean(IdempotencyStore.class), "ann"))
                    .startsWith(AesGcmPayloadProtection.PREFIX + "k1:").doesNotContain("hunter2");
        });
        runner.run(context -> {
            context.getBean(Users.class).create("bob", "hunter2");
            assertThat(storedPayload(context.getBean(IdempotencyStore.class), "bob")).as("off by default")
                    .contains("hunter2");
        });
    }

    @Test
    void badKeysFailTheStartNamingTheProperty() {
        runner.withPropertyValues("resilience.idempotent.encryption.keys.k1=not base64!").run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("resilience.idempotent.encryption.keys"));
        runner.withPropertyValues("resilience.idempotent.encryption.keys.k1=" + KEY,
                "resilience.idempotent.encryption.keys.k2=" + KEY).run(context -> assertThat(context).hasFailed()
                        .getFailure().hasStackTraceContaining("resilience.idempotent.encryption.active-key"));
    }
}
