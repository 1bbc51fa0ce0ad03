package io.github.resiliencestarter.context;

import org.jspecify.annotations.Nullable;

/**
 * An immutable snapshot of what travels with a request: its trace id, its deadline, the
 * idempotent execution in progress, the current retry attempt and who the caller is.
 *
 * <p>Every {@code with...} method returns a new snapshot. {@link #withDeadline(Deadline)} keeps the
 * earlier of the current and the given deadline, so nothing inside a request can extend the
 * budget it was given.
 */
public final class TraceContext {

    private static final TraceContext EMPTY = new TraceContext(null, null, null, 0, null, null, null, null);

    private final @Nullable String traceId;

    private final @Nullable Deadline deadline;

    private final @Nullable IdempotentExecution idempotentExecution;

    private final int attempt;

    private final @Nullable FailedTargets failedTargets;

    private final @Nullable String callerScope;

    /** The context whose attempts this one numbers ({@link #withAttempt}), or {@code null}. */
    private final @Nullable TraceContext attemptsOf;

    /** How whoever stops this work marks it first ({@link #withCancelMark}), or {@code null}. */
    private final @Nullable CancelMark cancelMark;

    /**
     * This context's first-attempt copy, made once: most calls succeed at once, so a retry's first
     * attempt reuses it instead of allocating. A racy cache of an immutable value (final fields).
     */
    private @Nullable TraceContext firstAttempt;


    private TraceContext(@Nullable String traceId, @Nullable Deadline deadline,
            @Nullable IdempotentExecution idempotentExecution, int attempt, @Nullable FailedTargets failedTargets,
            @Nullable String callerScope, @Nullable TraceContext attemptsOf, @Nullable CancelMark cancelMark) {
        this.attemptsOf = attemptsOf;
        this.cancelMark = cancelMark;
        this.traceId = traceId;
        this.deadline = deadline;
        this.idempotentExecution = idempotentExecution;
        this.attempt = attempt;
        this.failedTargets = failedTargets;
        this.callerScope = callerScope;
    }

    /**
     * The context outside any request: no trace id, no deadline, attempt 0.
     *
     * @return the empty context
     */
    public static TraceContext empty() {
        return EMPTY;
    }

    /**
     * The trace id, or {@code null} outside a traced request.
     *
     * @return the trace id
     */
    public @Nullable String traceId() {
        return traceId;
    }

    /**
     * The deadline, or {@code null} when the request has no budget.
     *
     * @return the deadline
     */
    public @Nullable Deadline deadline() {
        return deadline;
    }

    /**
     * Whether a deadline is set and already passed.
     *
     * @return {@code true} when the budget is spent
     */
    public boolean isExpired() {
        return deadline != null && deadline.isExpired();
    }

    /**
     * The idempotent execution in progress, or {@code null} outside one.
     *
     * @return the execution's handle
     */
    public @Nullable IdempotentExecution idempotentExecution() {
        return idempotentExecution;
    }

    /**
     * The retry attempt in progress: 0 outside a retry, 1 for the first attempt, 2 for the first
     * retry, and so on.
     *
     * @return the attempt number
     */
    public int attempt() {
        return attempt;
    }

    /**
     * A copy with another trace id.
     *
     * @param newTraceId the trace id
     * @return the new snapshot
     */
    public TraceContext withTraceId(String newTraceId) {
        return new TraceContext(newTraceId, deadline, idempotentExecution, attempt, failedTargets, callerScope,
                attemptsOf, cancelMark);
    }

    /**
     * A copy whose deadline is the earlier of the current one and {@code newDeadline}.
     *
     * @param newDeadline a deadline, or {@code null} to keep the current one
     * @return the new snapshot, or this one when nothing changes
     */
    public TraceContext withDeadline(@Nullable Deadline newDeadline) {
        Deadline effective = Deadline.earlierOf(deadline, newDeadline);
        return effective == deadline ? this
                : new TraceContext(traceId, effective, idempotentExecution, attempt, failedTargets, callerScope,
                        attemptsOf, cancelMark);
    }

    /**
     * A copy with no deadline at all. Only for work that must deliberately outlive its caller
     * (for example {@code @Timeout(inheritDeadline = false)}); never used on inbound paths.
     *
     * @return the new snapshot
     */
    public TraceContext withoutDeadline() {
        return deadline == null ? this
                : new TraceContext(traceId, null, idempotentExecution, attempt, failedTargets, callerScope,
                        attemptsOf, cancelMark);
    }

    /**
     * A copy running inside another idempotent execution.
     *
     * @param execution the execution's handle
     * @return the new snapshot
     */
    public TraceContext withIdempotentExecution(IdempotentExecution execution) {
        return new TraceContext(traceId, deadline, execution, attempt, failedTargets, callerScope, attemptsOf,
                cancelMark);
    }

    /**
     * A copy with another attempt number.
     *
     * @param newAttempt the attempt number
     * @return the new snapshot
     */
    public TraceContext withAttempt(int newAttempt) {
        // never this context itself, even for the same number: an attempt of a retry nested in
        // attempt 1 of another is an attempt of its own call, not of the outer one
        if (newAttempt == 1) {
            TraceContext first = firstAttempt;
            if (first == null) {
                first = new TraceContext(traceId, deadline, idempotentExecution, 1, failedTargets, callerScope, this,
                        cancelMark);
                firstAttempt = first;
            }
            return first;
        }
        return new TraceContext(traceId, deadline, idempotentExecution, newAttempt, failedTargets, callerScope, this,
                cancelMark);
    }

    /**
     * A copy that is a retried call's own: its attempts ({@link #withAttempt}) name it as the call
     * they belong to, apart from the attempts of any other retried call made from the same
     * context, one after the other or nested.
     *
     * @return the new snapshot, equal in every field
     */
    public TraceContext asRetriedCall() {
        return new TraceContext(traceId, deadline, idempotentExecution, attempt, failedTargets, callerScope,
                attemptsOf, cancelMark);
    }

    /**
     * The targets that failed earlier attempts of the retried call in progress, or {@code null}
     * outside one (or when no load balancer asks for them).
     *
     * @return the failed targets
     */
    public @Nullable FailedTargets failedTargets() {
        return failedTargets;
    }

    /**
     * A copy whose attempts share {@code targets}: one retried call's record of failed targets.
     *
     * @param targets the record for the call
     * @return the new snapshot
     */
    public TraceContext withFailedTargets(FailedTargets targets) {
        return new TraceContext(traceId, deadline, idempotentExecution, attempt, targets, callerScope, attemptsOf,
                cancelMark);
    }

    /**
     * Who the request's caller is, as the request thread resolved it once authentication ran: the
     * authenticated name, {@code ""} for an anonymous caller, or {@code null} when nothing
     * resolved it (outside a request). It travels with the context to every worker, so a key is
     * scoped to the caller on any thread the context reaches.
     *
     * @return the caller's scope, or {@code null}
     */
    public @Nullable String callerScope() {
        return callerScope;
    }

    /**
     * A copy carrying the caller's scope.
     *
     * @param scope the authenticated name, or {@code ""} for an anonymous caller
     * @return the new snapshot
     */
    public TraceContext withCallerScope(String scope) {
        return scope.equals(callerScope) ? this
                : new TraceContext(traceId, deadline, idempotentExecution, attempt, failedTargets, scope, attemptsOf,
                        cancelMark);
    }

    /**
     * The context of the retried call this attempt belongs to: the one {@link #withAttempt} was
     * called on. Attempts of one call share it; an attempt of a retry nested inside another has
     * its own.
     *
     * @return that context, or {@code null} outside a retried call
     */
    public @Nullable TraceContext attemptsOf() {
        return attemptsOf;
    }

    /**
     * How the work this context belongs to is marked when someone on this side stops it, or
     * {@code null} when nothing that may stop it gave it a mark.
     *
     * @return the mark
     */
    public @Nullable CancelMark cancelMark() {
        return cancelMark;
    }

    /**
     * A copy whose work is stopped through {@code mark}: a hedged attempt's, an offloaded task's.
     * Everything else, the attempt's place among its call's attempts included, stays.
     *
     * @param mark the work's mark
     * @return the new snapshot
     */
    public TraceContext withCancelMark(CancelMark mark) {
        return new TraceContext(traceId, deadline, idempotentExecution, attempt, failedTargets, callerScope, attemptsOf,
                mark);
    }

    @Override
    public String toString() {
        return "TraceContext[traceId=" + traceId + ", deadline=" + deadline + ", attempt=" + attempt + "]";
    }
}
