package io.github.resiliencestarter.rollout;

/** Whether a policy acts on its decisions or only records them. */
public enum EnforcementMode {

    /** Decisions take effect (for the rollout's share of requests). */
    ENFORCE,

    /** Decisions are recorded as what the policy would have done; the call goes on as without it. */
    OBSERVE
}
