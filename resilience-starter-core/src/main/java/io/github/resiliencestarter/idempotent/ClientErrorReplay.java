package io.github.resiliencestarter.idempotent;

import org.jspecify.annotations.Nullable;

/**
 * Tells a failure the client caused from any other, and rebuilds it for a replay. The engine knows
 * no HTTP: the web layer supplies one ({@code HttpClientErrorReplay}, from Spring's
 * {@code ErrorResponse} and {@code @ResponseStatus}); without it no failure counts as the client's.
 */
public interface ClientErrorReplay {

    /** Knows no client error: every failure releases its key. */
    ClientErrorReplay NONE = new ClientErrorReplay() {
        @Override
        public int clientErrorStatus(Throwable failure) {
            return 0;
        }

        @Override
        public @Nullable String detailOf(Throwable failure) {
            return failure.getMessage();
        }

        @Override
        public Throwable rebuild(int status, String failureType, @Nullable String detail) {
            return new IdempotentReplayException("The first call failed with " + failureType + ": " + detail, null);
        }
    };

    /**
     * The status a returned answer carries, such as a {@code ResponseEntity}'s: an answer
     * {@link KeptAnswers} does not keep (a 429, a 503 returned rather than thrown) releases the key.
     *
     * @param value what the method returned
     * @return its HTTP status, or 0 when it carries none
     */
    default int answerStatus(@Nullable Object value) {
        return 0;
    }

    /**
     * The status of a failure the client caused.
     *
     * @param failure what the method threw
     * @return its 4xx status, or 0 when it is not a client error
     */
    int clientErrorStatus(Throwable failure);

    /**
     * What of the failure is kept to rebuild it: the detail the client was told.
     *
     * @param failure a client error
     * @return its detail, or {@code null}
     */
    @Nullable String detailOf(Throwable failure);

    /**
     * The failure a duplicate is answered with.
     *
     * @param status the kept status
     * @param failureType the class name of the first failure
     * @param detail the kept detail
     * @return the failure to throw
     */
    Throwable rebuild(int status, String failureType, @Nullable String detail);
}
