package io.github.resiliencestarter.idempotent.simulation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What must hold after every schedule, whatever the faults:
 *
 * <ul>
 *   <li><b>at most once</b>: a key's work runs once. A second run is excused only where the
 *       guarantee says it may happen on a store without the completion in the business
 *       transaction: the owner crashed, or its lease was taken over while it could not keep it (cut
 *       off from the store, paused, the store frozen or losing messages), the store granting its
 *       key to another in such a fault or soon after it ({@link FaultPlan#excuses}). A node never runs a key again
 *       while it still holds that key's settlement;</li>
 *   <li><b>each downstream call under its own key</b>: a call of retried work is never sent
 *       under the key another call of the same execution derived (a downstream would replay the
 *       other call's answer, and this one would never be made);</li>
 *   <li><b>one answer</b>: every success answered for a key is the same value, the value of a run
 *       of that key (so no replay crosses a scope, whose stored keys differ);</li>
 *   <li><b>nothing blocked forever</b>: once the faults are over, a probe of each key succeeds (a
 *       replay or a run), or is refused as "executed, outcome unknown", which the guarantee
 *       allows.</li>
 * </ul>
 */
final class Invariants {

    /** The refusal of a key whose work ran but whose outcome could not be recorded. */
    private static final Set<String> ALLOWED_PROBE_FAILURES = Set.of("IdempotentReplayException");

    private Invariants() {
    }

    /**
     * How long after a fault ends a node that held a key has its lease back: an extension sent in the
     * fault may wait out the command timeout, the next one waits at most a sixth of the lease, then
     * takes a round trip; with room to spare.
     */
    private static long recovery(Schedule schedule) {
        return Schedule.ms(2 * schedule.commandTimeoutMillis + schedule.config.lease().toMillis() / 6 + 500);
    }

    static List<String> check(Schedule schedule, History history) {
        List<String> violations = new ArrayList<>(history.violations);
        Map<String, List<History.Effect>> effects = history.effects.stream()
                .collect(Collectors.groupingBy(History.Effect::storedKey, LinkedHashMap::new, Collectors.toList()));
        Set<String> excusedKeys = new java.util.HashSet<>();
        effects.forEach((key, runs) -> {
            // in the order the runs began, which is the order their claims were made
            runs.sort(java.util.Comparator.comparingLong(History.Effect::startedAt));
            for (int i = 1; i < runs.size(); i++) {
                History.Effect first = runs.get(i - 1);
                History.Effect again = runs.get(i);
                // the node of the first run still held the key (it tried to settle it later) when it ran it again
                boolean heldItself = first.life() == again.life() && history.lastSettleTry.getOrDefault(first.owner(),
                        Long.MAX_VALUE) >= again.startedAt();
                // judged when the first run's claim was granted to another: from then on nothing recalls that it ran
                long lost = history.lostAt(key, first.owner(), first.startedAt(), again.startedAt());
                if (!heldItself && schedule.faults.excuses(first.life().node, first.startedAt(), lost,
                        recovery(schedule))) {
                    excusedKeys.add(key);
                    continue;
                }
                boolean sameRun = first.owner().equals(again.owner());
                violations.add("at most once: " + key + " ran again at " + again.at() / 1_000_000 + " ms on "
                        + again.life() + " (first at " + first.at() / 1_000_000 + " ms on " + first.life()
                        + (sameRun ? ", in the same execution: a retry after its commit"
                                : heldItself ? ", which still held its settlement" : ", its owner unimpaired") + ")");
            }
        });
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (History.Effect effect : history.effects) {
            values.computeIfAbsent(effect.storedKey(), k -> new ArrayList<>()).add(effect.value());
        }
        Map<String, String> firstAnswered = new LinkedHashMap<>();
        for (History.Answer answer : history.answers) {
            if (answer.value() == null) {
                continue;
            }
            if (!values.getOrDefault(answer.storedKey(), List.of()).contains(answer.value())) {
                violations.add("one answer: request #" + answer.request() + " for " + answer.storedKey()
                        + " was answered " + answer.value() + ", which no run of that key returned");
                continue;
            }
            String earlier = firstAnswered.putIfAbsent(answer.storedKey(), answer.value());
            if (earlier != null && !earlier.equals(answer.value()) && !excusedKeys.contains(answer.storedKey())) {
                violations.add("one answer: request #" + answer.request() + " for " + answer.storedKey() + " got "
                        + answer.value() + (answer.replayed() ? " (a replay)" : "") + " after another caller got "
                        + earlier);
            }
        }
        for (History.Answer answer : history.answers) {
            if (answer.probe() && answer.value() == null && !ALLOWED_PROBE_FAILURES.contains(answer.failure())) {
                violations.add("blocked: the probe of " + answer.storedKey() + " after every fault got "
                        + answer.failure());
            }
        }
        long probes = history.answers.stream().filter(History.Answer::probe).count();
        long expected = schedule.requests.stream().map(r -> r.key() + "/" + r.scope()).distinct().count();
        if (probes != expected) {
            violations.add("blocked: " + (expected - probes) + " of " + expected + " probes never answered");
        }
        long unanswered = schedule.requests.size() - history.answers.stream().filter(a -> !a.probe()).count();
        if (unanswered > 0) {
            violations.add("blocked: " + unanswered + " requests never answered by the horizon");
        }
        return violations;
    }
}
