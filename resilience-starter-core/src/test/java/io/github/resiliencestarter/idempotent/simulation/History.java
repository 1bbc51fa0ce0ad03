package io.github.resiliencestarter.idempotent.simulation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What happened in one schedule: every store operation as the store applied it, every effect of
 * the work (counted where nothing deduplicates), and every answer a caller got. The trace of store
 * operations is what a replayed seed must repeat exactly.
 */
final class History {

    /** One run of the work's effect. */
    record Effect(String storedKey, SimKernel.Life life, String owner, long startedAt, long at, String value) {
    }

    /** What one request was answered. {@code value} is set for a success, {@code failure} otherwise. */
    record Answer(int request, String storedKey, SimKernel.Life life, long sentAt, long at, @Nullable String value,
            boolean replayed, @Nullable String failure, boolean probe) {
    }

    final List<Effect> effects = new ArrayList<>();

    final List<Answer> answers = new ArrayList<>();

    /** What a run's own work saw go wrong: a downstream call sent under another call's key. */
    final List<String> violations = new ArrayList<>();

    /** A claim the store granted (a new claim or a takeover), when it applied it. */
    record Claimed(String storedKey, String owner, long at) {
    }

    final List<Claimed> claims = new ArrayList<>();

    /** Per owner token, when its node last sent a completion or release: until then it held the key. */
    final java.util.Map<String, Long> lastSettleTry = new java.util.HashMap<>();

    private final StringBuilder trace = new StringBuilder();

    private final boolean keepTrace;

    History(boolean keepTrace) {
        this.keepTrace = keepTrace;
    }

    void storeOp(long atMillis, SimKernel.Life life, String what, String key, @Nullable Object reply) {
        if (keepTrace) {
            trace.append(atMillis).append(' ').append(life).append(' ').append(what).append(' ').append(key)
                    .append(" -> ").append(describe(reply)).append('\n');
        }
    }

    /** Claims a plain read answered with a completed record, without the claim script (the Redis store's read-first). */
    int claimsAnsweredByRead;

    void answeredByRead() {
        claimsAnsweredByRead++;
    }

    void claimed(String storedKey, String owner, long atNanos) {
        claims.add(new Claimed(storedKey, owner, atNanos));
    }

    /**
     * When the store first granted {@code storedKey} to an owner other than {@code owner} after
     * {@code since}: the moment {@code owner}'s run stopped being the key's record; {@code fallback}
     * when it never did.
     */
    long lostAt(String storedKey, String owner, long since, long fallback) {
        return claims.stream().filter(c -> c.storedKey().equals(storedKey) && !c.owner().equals(owner)
                && c.at() >= since).mapToLong(Claimed::at).min().orElse(fallback);
    }

    void settleTry(String owner, long atNanos) {
        lastSettleTry.put(owner, atNanos);
    }

    void effect(Effect effect) {
        effects.add(effect);
        if (keepTrace) {
            trace.append(effect.at() / 1_000_000).append(' ').append(effect.life()).append(" EFFECT ")
                    .append(effect.value()).append('\n');
        }
    }

    void answer(Answer answer) {
        answers.add(answer);
        if (keepTrace) {
            trace.append(answer.at() / 1_000_000).append(' ').append(answer.life()).append(" ANSWER #")
                    .append(answer.request()).append(' ').append(answer.value() != null ? answer.value()
                            + (answer.replayed() ? " (replay)" : "") : answer.failure()).append('\n');
        }
    }

    String trace() {
        return trace.toString();
    }

    /** A reply without the owner tokens, which are random: the trace compares what the store decided. */
    private static String describe(@Nullable Object reply) {
        if (reply instanceof boolean[] flags) {
            return Arrays.toString(flags);
        }
        if (reply instanceof io.github.resiliencestarter.idempotent.ClaimResult claim) {
            return claim.existing() == null ? claim.outcome().name()
                    : claim.outcome() + "(" + claim.existing().status() + ")";
        }
        if (reply instanceof io.github.resiliencestarter.idempotent.IdempotencyRecord record) {
            return record.status().name();
        }
        return String.valueOf(reply);
    }
}
