package io.github.resiliencestarter.spring.grpc;

import io.github.resiliencestarter.retry.RetryRule;
import io.grpc.Status;

/**
 * Classifies gRPC failures ({@code StatusRuntimeException}, {@code StatusException}) by their
 * status: {@code UNAVAILABLE} (the server could not be reached or shed the call) and
 * {@code RESOURCE_EXHAUSTED} are transient; {@code INVALID_ARGUMENT}, {@code FAILED_PRECONDITION},
 * {@code ALREADY_EXISTS}, {@code NOT_FOUND}, {@code PERMISSION_DENIED}, {@code UNAUTHENTICATED},
 * {@code OUT_OF_RANGE}, {@code UNIMPLEMENTED} and {@code DEADLINE_EXCEEDED} (the budget is spent)
 * are not; other statuses are left to the other rules.
 */
public final class GrpcRetryRules implements RetryRule {

    @Override
    public Verdict classify(Throwable error) {
        Status.Code code = codeOf(error);
        if (code == null) {
            return Verdict.ABSTAIN;
        }
        return switch (code) {
            case UNAVAILABLE, RESOURCE_EXHAUSTED -> Verdict.RETRY;
            case INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS, NOT_FOUND, PERMISSION_DENIED, UNAUTHENTICATED,
                    OUT_OF_RANGE, UNIMPLEMENTED, DEADLINE_EXCEEDED -> Verdict.NO_RETRY;
            default -> Verdict.ABSTAIN;
        };
    }

    @Override
    public String explain(Throwable error, Verdict verdict) {
        return "gRPC status " + codeOf(error) + (verdict == Verdict.RETRY ? " is transient (rule R-2)"
                : " is permanent or a spent deadline (rule R-P5)");
    }

    private static Status.@org.jspecify.annotations.Nullable Code codeOf(Throwable error) {
        if (error instanceof io.grpc.StatusRuntimeException || error instanceof io.grpc.StatusException) {
            return Status.fromThrowable(error).getCode();
        }
        return null;
    }
}
