package io.github.resiliencestarter.testsupport.contract;

/** What an entry point has, beyond running keyed work once: the cases that apply to it follow from these. */
public enum EntryPointCapability {

    /** A client gets an answer it can compare with a replay's (HTTP, gRPC; not a message). */
    ANSWERS,

    /** An answer carries an HTTP status the work chooses (servlet, WebFlux, gateway). */
    STATUSES,

    /** Callers are authenticated and a key belongs to its caller. */
    CALLERS,

    /** The entry point buffers a keyed request's body itself, up to a limit (413 beyond). */
    BODY_LIMIT
}
