package io.github.resiliencestarter.idempotent.internal;

/** What an idempotent execution does next, as {@link ClaimProgress} decides it. */
public enum ClaimStep {

    /** The key is this execution's: run the work. */
    RUN,

    /**
     * The key was claimed, but the answer came so late that its lease may have lapsed: extend the
     * lease with the execution's token, then ask {@link ClaimProgress#afterConfirm}.
     */
    CONFIRM,

    /** The first call is done: replay its outcome. */
    REPLAY,

    /** The first call is still in progress and this one may not wait (longer): 409. */
    REJECT,

    /** The key was used with another payload: 422. */
    KEY_REUSED,

    /** The first call is in progress: wait {@link ClaimProgress#waitMillis()}, then read the record again. */
    WAIT,

    /** The record was released or abandoned while waiting: claim again (taking an expired lease over). */
    CLAIM_AGAIN
}
