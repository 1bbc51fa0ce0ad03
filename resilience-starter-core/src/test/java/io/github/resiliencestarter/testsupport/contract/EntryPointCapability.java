package io.github.resiliencestarter.testsupport.contract;

/** What an entry point has, beyond running keyed work once: the cases that apply to it follow from these. */
public enum EntryPointCapability {

    /** A client gets an answer it can compare with a replay's (HTTP, gRPC; not a message). */
    ANSWERS,

    /** An answer carries an HTTP status the work chooses (servlet, WebFlux, gateway). */
    STATUSES,

    /** A request carries its caller's deadline in (an HTTP budget header, a gRPC deadline). */
    DEADLINES,

    /** Callers are authenticated and a key belongs to its caller. */
    CALLERS,

    /**
     * The module runs this entry point in a second process of its application too
     * ({@link EntryPoint#in(ContractProcess)}), which a case kills while its work is under way.
     */
    KILLABLE,

    /**
     * The entry point buffers a keyed request's body itself, up to a limit below
     * {@link IdempotencyEntryPointContract#OVERSIZED_BYTES} (413 beyond).
     */
    BODY_LIMIT
}
