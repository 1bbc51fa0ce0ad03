package io.github.resiliencestarter.testsupport.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.idempotent.KeptAnswers;
import io.github.resiliencestarter.testsupport.Eventually;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code @Idempotent} contract, the same cases for every entry point a module drives: a module
 * extends this class and names its entry points in {@link #entryPoints()}; an entry point added
 * later gets every case by being added there. A case that needs what an entry point does not have
 * (an answer to compare, callers, statuses) is not run for it, by its {@link EntryPointCapability}s.
 * Effects are rows of {@link ContractWork#TABLE}, which has no unique key.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class IdempotencyEntryPointContract {

    /** Duplicates sent at once in the overlap case, besides the first. */
    private static final int DUPLICATES = 3;

    /** A body larger than the limit of every {@link EntryPointCapability#BODY_LIMIT} entry point under test. */
    public static final int OVERSIZED_BYTES = 256 * 1024;

    /** The tag of the case that kills a second process: about 10 s each, so not on every leg. */
    public static final String PROCESS_KILL = "process-kill";

    /** The deadline of the request whose process is killed: its lease lapses a margin after it. */
    private static final Duration KILLED_CALLERS_BUDGET = Duration.ofSeconds(3);

    /**
     * The entry points under test.
     *
     * @return each, driven against the running application
     */
    protected abstract List<EntryPoint> entryPoints();

    /**
     * The module's application class, whose {@code main} a second process runs for the
     * {@link EntryPointCapability#KILLABLE} entry points: it starts every entry point and
     * {@linkplain ContractProcess#announce announces} their ports.
     *
     * @return the class, or {@code null} when no entry point is killable
     */
    protected @Nullable Class<?> application() {
        return null;
    }

    /**
     * More arguments for the second process's application: what only this JVM knows, such as the
     * address of a broker it embeds.
     *
     * @return the arguments, {@code --name=value}
     */
    protected List<String> applicationArguments() {
        return List.of();
    }

    Stream<EntryPoint> all() {
        return entryPoints().stream();
    }

    Stream<EntryPoint> killable() {
        return all().filter(entryPoint -> entryPoint.capabilities().contains(EntryPointCapability.KILLABLE));
    }

    Stream<EntryPoint> answering() {
        return all().filter(entryPoint -> entryPoint.capabilities().contains(EntryPointCapability.ANSWERS));
    }

    Stream<EntryPoint> withStatuses() {
        return all().filter(entryPoint -> entryPoint.capabilities().contains(EntryPointCapability.STATUSES));
    }

    Stream<EntryPoint> withBodyLimit() {
        return all().filter(entryPoint -> entryPoint.capabilities().contains(EntryPointCapability.BODY_LIMIT));
    }

    Stream<EntryPoint> withDeadlines() {
        return all().filter(entryPoint -> entryPoint.capabilities().contains(EntryPointCapability.DEADLINES));
    }

    Stream<EntryPoint> withCallers() {
        return all().filter(entryPoint -> entryPoint.capabilities().contains(EntryPointCapability.CALLERS));
    }

    private static String key(EntryPoint entryPoint) {
        return entryPoint.name() + "-" + UUID.randomUUID();
    }

    private static int effects(EntryPoint entryPoint, String key) {
        return ContractWork.effects(entryPoint.name(), key);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void I5_aDuplicateAfterTheFirstCompletedTakesNoEffect(EntryPoint entryPoint) {
        String key = key(entryPoint);

        entryPoint.send("alice", key, "tea");
        Eventually.waitUntil("the first effect", () -> effects(entryPoint, key) == 1);
        entryPoint.send("alice", key, "tea");

        Eventually.waitUntil("the duplicate handled", () -> ContractWork.arrivals(key) == 2);
        assertThat(effects(entryPoint, key)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("answering")
    void IP5_aDuplicateGetsTheFirstAnswerByteForByteMarkedAsAReplay(EntryPoint entryPoint) {
        String key = key(entryPoint);

        ContractAnswer first = entryPoint.send("alice", key, "rice");
        ContractAnswer duplicate = entryPoint.send("alice", key, "rice");

        assertThat(first.replayed()).isFalse();
        assertThat(duplicate.replayed()).isTrue();
        assertThat(duplicate.status()).isEqualTo(first.status());
        assertThat(duplicate.body()).isEqualTo(first.body());
        assertThat(duplicate.headers()).isEqualTo(first.headers());
        assertThat(effects(entryPoint, key)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void aDuplicateAfterATransientFailureRunsAgainAndTakesEffectOnce(EntryPoint entryPoint) {
        String key = key(entryPoint);

        entryPoint.send("alice", key, "salt " + ContractWork.FAIL_ONCE);
        // an entry point with answers: the client retries; a message: the broker redelivers by itself
        if (entryPoint.capabilities().contains(EntryPointCapability.ANSWERS)) {
            entryPoint.send("alice", key, "salt " + ContractWork.FAIL_ONCE);
        }

        Eventually.waitUntil("the retry's effect", () -> effects(entryPoint, key) == 1);
        entryPoint.send("alice", key, "salt " + ContractWork.FAIL_ONCE);
        Eventually.waitUntil("the last duplicate handled", () -> ContractWork.arrivals(key) >= 3);
        assertThat(effects(entryPoint, key)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void I3_concurrentDuplicatesThatArriveWhileTheFirstRunsTakeNoEffect(EntryPoint entryPoint) throws Exception {
        String key = key(entryPoint);
        String payload = "oil " + ContractWork.HOLD;
        // a client thread per request: a shared pool of one thread (two cores) would send them one by one
        ExecutorService clients = Executors.newFixedThreadPool(1 + DUPLICATES);
        try {
            overlap(entryPoint, key, payload, clients);
        } finally {
            clients.shutdownNow();
        }
    }

    private static void overlap(EntryPoint entryPoint, String key, String payload, ExecutorService clients)
            throws Exception {
        List<CompletableFuture<ContractAnswer>> calls = new ArrayList<>();
        calls.add(CompletableFuture.supplyAsync(() -> entryPoint.send("alice", key, payload), clients));
        Eventually.waitUntil("the first execution holding", () -> ContractWork.holding(key));
        for (int i = 0; i < DUPLICATES; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> entryPoint.send("alice", key, payload), clients));
        }
        // real overlap: every duplicate reached the entry point while the first still runs
        Eventually.waitUntil("every duplicate arrived", () -> ContractWork.arrivals(key) == 1 + DUPLICATES);
        assertThat(effects(entryPoint, key)).isEqualTo(1);

        ContractWork.release(key);
        for (CompletableFuture<ContractAnswer> call : calls) {
            ContractAnswer answer = call.get(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
            // a duplicate waits for the first answer, or hears it is still in progress (409)
            assertThat(answer.status()).isIn(201, 202, 409);
        }
        assertThat(effects(entryPoint, key)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("withStatuses")
    void IP5_theAnswersTheKeyKeepsAreReplayedAndTheOthersReleaseIt(EntryPoint entryPoint) {
        for (int status : new int[] {201, 404, 422, 401, 403, 408, 409, 425, 429, 500, 503}) {
            String key = key(entryPoint);
            String payload = "jam answer-" + status;

            ContractAnswer first = entryPoint.send("alice", key, payload);
            ContractAnswer retry = entryPoint.send("alice", key, payload);

            assertThat(first.status()).as("the work's own %d", status).isEqualTo(status);
            if (KeptAnswers.keeps(status)) {
                assertThat(retry.replayed()).as("%d kept", status).isTrue();
                assertThat(effects(entryPoint, key)).as("%d kept", status).isEqualTo(1);
            } else {
                assertThat(retry.replayed()).as("%d released", status).isFalse();
                assertThat(effects(entryPoint, key)).as("%d released", status).isEqualTo(2);
            }
        }
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("withCallers")
    void IP5_aKeySentByAnotherCallerIsTheirsAndNeverReplaysTheFirstCallersAnswer(EntryPoint entryPoint) {
        String key = key(entryPoint);

        ContractAnswer alice = entryPoint.send("alice", key, "bread");
        ContractAnswer bob = entryPoint.send("bob", key, "bread");

        assertThat(bob.replayed()).isFalse();
        assertThat(bob.body()).isNotEqualTo(alice.body());
        assertThat(effects(entryPoint, key)).as("each caller's own execution").isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("withBodyLimit")
    void aKeyedBodyOverTheLimitIsA413AndReachesNoWork(EntryPoint entryPoint) {
        String key = key(entryPoint);

        ContractAnswer refused = entryPoint.send("alice", key, "x".repeat(OVERSIZED_BYTES));

        assertThat(refused.status()).isEqualTo(413);
        assertThat(new String(refused.body(), java.nio.charset.StandardCharsets.UTF_8))
                .contains("too-large").doesNotContain("Exception");
        assertThat(effects(entryPoint, key)).isZero();
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("withDeadlines")
    void I6_aDuplicateAfterTheFirstCallersDeadlinePassedTakesNoEffect(EntryPoint entryPoint) throws Exception {
        String key = key(entryPoint);
        String payload = "milk " + ContractWork.HOLD;
        Duration budget = Duration.ofMillis(500);
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<ContractAnswer> first = CompletableFuture.supplyAsync(
                    () -> entryPoint.send("alice", key, payload, budget), clients);
            Eventually.waitUntil("the first execution holding", () -> ContractWork.holding(key));
            // the server's deadline began before the work held: it is past once this one is
            Deadline past = Deadline.after(budget);
            Eventually.waitUntil("the first caller's deadline past", past::isExpired);
            CompletableFuture<ContractAnswer> duplicate = CompletableFuture.supplyAsync(
                    () -> entryPoint.send("alice", key, payload), clients);
            Eventually.waitUntil("the duplicate arrived", () -> ContractWork.arrivals(key) == 2);
            ContractWork.release(key);
            first.get(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
            duplicate.get(Eventually.GENEROUSLY.toSeconds(), TimeUnit.SECONDS);
        } finally {
            clients.shutdownNow();
        }

        assertThat(effects(entryPoint, key)).as("the work ran once, though its caller gave up").isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("killable")
    @Tag(PROCESS_KILL)
    void I6_aDuplicateAfterTheFirstsProcessWasKilledMidWorkRunsOnceItsLeaseLapsedAndTakesEffectOnce(
            EntryPoint entryPoint) {
        Class<?> application = Objects.requireNonNull(application(), "a killable entry point needs application()");
        String key = key(entryPoint);
        boolean answers = entryPoint.capabilities().contains(EntryPointCapability.ANSWERS);
        ExecutorService client = Executors.newSingleThreadExecutor();
        try (ContractProcess second = ContractProcess.start(application, entryPoint.name(), applicationArguments())) {
            EntryPoint there = entryPoint.in(second);
            // a deadline, where the entry point carries one, sizes the claim's lease: a short one
            CompletableFuture<ContractAnswer> first = CompletableFuture.supplyAsync(
                    () -> there.send("alice", key, "flour", KILLED_CALLERS_BUDGET), client);
            second.awaitMidWork(key);
            second.kill();
            assertThat(effects(entryPoint, key)).as("the killed execution's effect, never committed").isZero();
            if (answers) {
                // its client loses the connection: no answer, or a status saying the server is gone
                int lost = first.handle((answer, failure) -> failure != null ? -1 : answer.status()).join();
                assertThat(lost).as("the killed process's answer").isNotEqualTo(201);
            }
        } finally {
            client.shutdownNow();
        }

        if (answers) {
            // the key stays the dead process's until its lease lapses, then a duplicate takes it over
            AtomicReference<ContractAnswer> takenOver = new AtomicReference<>();
            Eventually.waitUntil("a duplicate run once the killed process's lease lapsed", () -> {
                takenOver.set(entryPoint.send("alice", key, "flour"));
                return takenOver.get().status() == 201;
            });
            ContractAnswer again = entryPoint.send("alice", key, "flour");

            assertThat(takenOver.get().replayed()).isFalse();
            assertThat(again.replayed()).as("the next duplicate replays the run that took the key over").isTrue();
            assertThat(again.body()).isEqualTo(takenOver.get().body());
        } else {
            // the broker redelivers the killed delivery to the consumers left; it runs once the lease lapsed
            Eventually.waitUntil("the killed delivery run again", () -> effects(entryPoint, key) == 1);
            entryPoint.send("alice", key, "flour");
        }
        assertThat(effects(entryPoint, key)).isEqualTo(1);
    }
}
