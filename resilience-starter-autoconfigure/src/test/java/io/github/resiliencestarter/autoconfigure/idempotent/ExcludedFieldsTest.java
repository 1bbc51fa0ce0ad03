package io.github.resiliencestarter.autoconfigure.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.retry.RetryAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyConfig;
import io.github.resiliencestarter.idempotent.IdempotencyKeys;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.idempotent.IdempotentCall;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.ResponseEntity;

/**
 * {@code @Idempotent(excludeFields)} and {@code resilience.idempotent.exclude-fields}: what the
 * store must not keep (petclinic-rest's user creation echoes the password) is left out of the
 * stored response at any depth; the first caller gets it, a replay has it empty.
 */
class ExcludedFieldsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ResilienceAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class, RetryAutoConfiguration.class))
            .withBean(Users.class);

    /** A user with credentials, and one nested in a list. */
    public record User(String name, @Nullable String password, List<Credential> credentials) {
    }

    /** Nested: left out at any depth. */
    public record Credential(String kind, @Nullable String password) {
    }

    static class Users {

        private final AtomicInteger created = new AtomicInteger();

        @Idempotent(key = "#name", name = "USER_CREATE", excludeFields = "password")
        public ResponseEntity<User> create(String name) {
            created.incrementAndGet();
            return ResponseEntity.status(201).body(new User(name, "hunter2", List.of(new Credential("pin", "1234"))));
        }

        @Idempotent(key = "#name", name = "USER_NOTE")
        public User note(String name) {
            return new User(name, "s3cret", List.of());
        }

        int created() {
            return created.get();
        }
    }

    private static String stored(IdempotencyStore store, String name, String key) {
        return store.find(IdempotencyKeys.storedKey(IdempotencyConfig.DEFAULT_KEY_PREFIX, name, "", key))
                .response().payload();
    }

    @Test
    void anExcludedFieldIsLeftOutOfTheStoreAtAnyDepthAndEmptyInTheReplay() {
        runner.run(context -> {
            Users users = context.getBean(Users.class);
            ResponseEntity<User> first = users.create("ann");
            ResponseEntity<User> replay = users.create("ann");

            assertThat(first.getBody().password()).isEqualTo("hunter2");
            assertThat(replay.getStatusCode().value()).isEqualTo(201);
            assertThat(replay.getBody().name()).isEqualTo("ann");
            assertThat(replay.getBody().password()).isNull();
            assertThat(replay.getBody().credentials()).singleElement()
                    .satisfies(credential -> assertThat(credential.password()).isNull());
            assertThat(stored(context.getBean(IdempotencyStore.class), "USER_CREATE", "ann"))
                    .doesNotContain("hunter2", "1234").contains("pin");
            assertThat(users.created()).isEqualTo(1);
            // another method keeps everything
            users.note("bob");
            assertThat(stored(context.getBean(IdempotencyStore.class), "USER_NOTE", "bob")).contains("s3cret");
        });
        runner.withPropertyValues("resilience.idempotent.exclude-fields=password").run(context -> {
            context.getBean(Users.class).note("bob");
            assertThat(stored(context.getBean(IdempotencyStore.class), "USER_NOTE", "bob")).doesNotContain("s3cret");
        });
    }

    @Test
    void aCodecThatCannotLeaveFieldsOutFailsTheStartNamingTheMethod() {
        ResponseCodec plain = new ResponseCodec() {
            @Override
            public String encode(@Nullable Object value, Type type) {
                return String.valueOf(value);
            }

            @Override
            public @Nullable Object decode(String payload, Type type) {
                return payload;
            }
        };
        runner.withBean(ResponseCodec.class, () -> plain).run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("@Idempotent on " + Users.class.getName() + ".create(String) leaves fields")
                .hasStackTraceContaining("the configured codec cannot"));
    }
}
