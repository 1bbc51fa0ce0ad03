package io.github.resiliencestarter.rollout;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which kinds of observed decision each policy has already logged: an observing policy writes one
 * line the first time it would have acted in a given way, and counts the later ones only in its
 * metrics, so observe mode on a busy service does not flood the log. Safe for concurrent use.
 */
public final class FirstObservations {

    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /**
     * Records a decision and says whether it is the first of its kind for its policy.
     *
     * @param operation the policy's name
     * @param kind what it would have done, such as {@code would_replay}
     * @return {@code true} the first time only
     */
    public boolean first(String operation, String kind) {
        return seen.add(operation + ' ' + kind);
    }
}
