package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import io.github.resiliencestarter.idempotent.support.InMemoryIdempotencyStore;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Which answers a key keeps: the one table every entry point applies, and the engine applying it to returned answers. */
class KeptAnswersTest {

    /** An answer that carries a status, as a web layer's {@code ResponseEntity} does. */
    public record Answer(int status, String body) {
    }

    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

    private final IdempotentExecutor executor = IdempotentExecutor.builder(store, new Fastjson2ResponseCodec())
            .clientErrors(new ClientErrorReplay() {
                @Override
                public int answerStatus(@Nullable Object value) {
                    return value instanceof Answer answer ? answer.status() : 0;
                }

                @Override
                public int clientErrorStatus(Throwable failure) {
                    return NONE.clientErrorStatus(failure);
                }

                @Override
                public @Nullable String detailOf(Throwable failure) {
                    return NONE.detailOf(failure);
                }

                @Override
                public Throwable rebuild(int status, String failureType, @Nullable String detail) {
                    return NONE.rebuild(status, failureType, detail);
                }
            }).build();

    private final AtomicInteger runs = new AtomicInteger();

    private static IdempotentCall call(String key) {
        return IdempotentCall.builder("Orders.create", IdempotencyConfig.ofDefaults()).key(key)
                .returnType(Answer.class).build();
    }

    private IdempotentResult<Answer> answer(IdempotentCall call, int status) throws Throwable {
        return executor.execute(call, () -> {
            runs.incrementAndGet();
            return new Answer(status, "run " + runs.get());
        });
    }

    @Test
    void IP5_successesRedirectsAndClientErrorsTheSameRequestWouldMeetAgainAreKept() {
        for (int status : new int[] {200, 201, 202, 204, 301, 303, 400, 404, 410, 412, 413, 415, 422}) {
            assertThat(KeptAnswers.keeps(status)).as("%d", status).isTrue();
        }
        for (int status : new int[] {401, 403, 408, 409, 425, 429, 500, 502, 503, 504, 0, 99, 600}) {
            assertThat(KeptAnswers.keeps(status)).as("%d", status).isFalse();
        }
        for (int status : KeptAnswers.RELEASING_CLIENT_ERRORS) {
            assertThat(KeptAnswers.keeps(status)).as("the listed %d", status).isFalse();
        }
        assertThat(KeptAnswers.keepsClientError(404)).isTrue();
        assertThat(KeptAnswers.keepsClientError(201)).as("a success is no client error").isFalse();
        assertThat(KeptAnswers.keepsClientError(429)).isFalse();
    }

    @Test
    void IP5_aReturnedAnswerTheKeyDoesNotKeepReleasesItSoTheRetryRuns() throws Throwable {
        IdempotentCall call = call("k-429");

        assertThat(answer(call, 429).value().status()).isEqualTo(429);
        assertThat(store.find(call.storedKey())).as("released").isNull();
        IdempotentResult<Answer> retried = answer(call, 201);

        assertThat(retried.replayed()).isFalse();
        assertThat(runs).hasValue(2);
        IdempotentResult<Answer> duplicate = answer(call, 201);
        assertThat(duplicate.replayed()).isTrue();
        assertThat(duplicate.value()).isEqualTo(new Answer(201, "run 2"));
    }

    @Test
    void IP5_aReturnedClientErrorTheKeyKeepsIsReplayed() throws Throwable {
        IdempotentCall call = call("k-404");
        answer(call, 404);

        IdempotentResult<Answer> duplicate = answer(call, 201);

        assertThat(duplicate.replayed()).isTrue();
        assertThat(duplicate.value()).isEqualTo(new Answer(404, "run 1"));
        assertThat(runs).hasValue(1);
    }

    @Test
    void aReturnedServerFailureAfterAnAttemptCommittedWithTheKeyNeverLetsTheWorkRunAgain() throws Throwable {
        IdempotentCall call = call("k-503-committed");
        executor.execute(call, () -> {
            runs.incrementAndGet();
            // what the JDBC store records when an attempt's transaction commits with the key
            TraceContextHolder.current().idempotentExecution().recordCommit(TraceContextHolder.current());
            return new Answer(503, "half done");
        });

        assertThatThrownBy(() -> answer(call, 201)).isInstanceOf(IdempotencyException.class);
        assertThat(runs).hasValue(1);
    }
}
