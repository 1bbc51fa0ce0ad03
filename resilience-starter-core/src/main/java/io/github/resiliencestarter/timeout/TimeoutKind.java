package io.github.resiliencestarter.timeout;

/** The three kinds of timeout that rule T-4 keeps apart. */
public enum TimeoutKind {

    /** No connection could be made in time; the request was never sent, so it is safe to retry. */
    CONNECT,

    /** Connected, but no (complete) answer in time; the request may or may not have taken effect. */
    READ,

    /** The business deadline (the request's budget) ran out; retrying rarely helps. */
    DEADLINE
}
