package io.github.resiliencestarter.timeout;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The business deadline ran out: either a {@code @Timeout} fired while the work ran, or the budget
 * was already spent before it started (the work was then never invoked). Rendered as HTTP 504.
 */
public class DeadlineExceededException extends ResilienceTimeoutException {

    private static final long serialVersionUID = 1L;

    /** Why the deadline was exceeded. */
    public enum Reason {

        /** The work started and was still running at the deadline. */
        TIMED_OUT,

        /** No time was left, so the work was not started. */
        BUDGET_SPENT
    }

    private final String operation;

    private final Reason reason;

    private final transient @Nullable Duration timeout;

    /**
     * Creates the exception.
     *
     * @param operation the operation that ran out of time (for example {@code OrderController.create})
     * @param reason why
     * @param timeout the local limit that applied, or {@code null} when only an inherited budget did
     * @param cause what the work threw when it was interrupted, or {@code null}
     */
    public DeadlineExceededException(String operation, Reason reason, @Nullable Duration timeout,
            @Nullable Throwable cause) {
        super(describe(operation, reason, timeout), cause);
        this.operation = operation;
        this.reason = reason;
        this.timeout = timeout;
    }

    /**
     * The budget was spent before {@code operation} could start.
     *
     * @param operation the operation
     * @return the exception
     */
    public static DeadlineExceededException budgetSpent(String operation) {
        return new DeadlineExceededException(operation, Reason.BUDGET_SPENT, null, null);
    }

    /**
     * The operation that ran out of time.
     *
     * @return the operation name
     */
    public String operation() {
        return operation;
    }

    /**
     * Why the deadline was exceeded.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }

    /**
     * The local limit that applied, or {@code null}.
     *
     * @return the timeout
     */
    public @Nullable Duration timeout() {
        return timeout;
    }

    @Override
    public TimeoutKind kind() {
        return TimeoutKind.DEADLINE;
    }

    private static String describe(String operation, Reason reason, @Nullable Duration timeout) {
        if (reason == Reason.BUDGET_SPENT) {
            return "Deadline already exceeded before " + operation + " started; it was not invoked";
        }
        return timeout != null
                ? operation + " did not complete within its deadline (timeout " + timeout.toMillis() + " ms)"
                : operation + " did not complete within its deadline";
    }
}
