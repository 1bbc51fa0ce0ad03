package io.github.resiliencestarter.idempotent.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the store reads as a server naming a key's master now, and what it does not. */
class RedirectedExceptionTest {

    @Test
    void readsTheAddressOfAMovedAnswer() {
        RedirectedException redirect = RedirectedException.fromMoved("the script",
                new RedisCommandExecutionException("MOVED 3999 127.0.0.1:6381"));

        assertThat(redirect).isNotNull();
        assertThat(redirect.host()).isEqualTo("127.0.0.1");
        assertThat(redirect.port()).isEqualTo(6381);
        assertThat(redirect).hasMessage("Redis the script failed: MOVED 3999 127.0.0.1:6381");
    }

    @Test
    void readsAnIpv6AddressWrittenWithoutBrackets() {
        RedirectedException redirect = RedirectedException.fromMoved("GET",
                new RedisCommandExecutionException("MOVED 3999 ::1:6381"));

        assertThat(redirect).isNotNull();
        assertThat(redirect.host()).isEqualTo("::1");
        assertThat(redirect.port()).isEqualTo(6381);
    }

    @Test
    void anyOtherAnswerIsNoRedirect() {
        // ASK is a slot in migration: the key's master has not changed, the store refuses as before
        for (String answer : List.of("ASK 3999 127.0.0.1:6381", "NOSCRIPT No matching script", "MOVED 3999 :6381",
                "MOVED 3999 127.0.0.1:port", "MOVED 3999")) {
            assertThat(RedirectedException.fromMoved("the script", new RedisCommandExecutionException(answer)))
                    .as(answer).isNull();
        }
    }

    @Test
    void readsTheMasterADemotedServerReplicates() {
        RedirectedException redirect = RedirectedException.fromReplicaRole(
                List.of("slave", "127.0.0.1", 6382L, "connected", 1234L));

        assertThat(redirect).isNotNull();
        assertThat(redirect.host()).isEqualTo("127.0.0.1");
        assertThat(redirect.port()).isEqualTo(6382);
        assertThat(RedirectedException.fromReplicaRole(List.of("sentinel", List.of("mymaster")))).isNull();
    }

    @Test
    void aRedirectNotFollowedReachesCallersAsAPlainStoreFailure() {
        RedirectedException redirect = RedirectedException.fromMoved("the script",
                new RedisCommandExecutionException("MOVED 3999 127.0.0.1:6381"));
        redirect.addSuppressed(new IllegalStateException("no connection to 127.0.0.1:6381"));

        IdempotencyStoreException refusal = redirect.asRefusal();

        // the class callers catch (and the failover rehearsal sends again), with everything it said
        assertThat(refusal.getClass()).isEqualTo(IdempotencyStoreException.class);
        assertThat(refusal).hasMessage(redirect.getMessage()).hasCause(redirect.getCause());
        assertThat(refusal.getSuppressed()).hasSize(1);
    }
}
