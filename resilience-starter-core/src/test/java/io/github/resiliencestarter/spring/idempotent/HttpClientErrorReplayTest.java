package io.github.resiliencestarter.spring.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.server.ResponseStatusException;

/** Which failures are the client's, and what a replay of one is. */
class HttpClientErrorReplayTest {

    private final HttpClientErrorReplay replay = new HttpClientErrorReplay();

    @ResponseStatus(HttpStatus.UNPROCESSABLE_ENTITY)
    public static class RejectedOrder extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public RejectedOrder(String message) {
            super(message);
        }
    }

    /** Not a client error, whatever its name says. */
    public static class NotAnnotated extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public NotAnnotated(String message) {
            super(message);
        }
    }

    @Test
    void fourHundredsAreTheClientsExceptThoseThatAskToTryAgain() {
        assertThat(replay.clientErrorStatus(new ResponseStatusException(HttpStatus.NOT_FOUND))).isEqualTo(404);
        assertThat(replay.clientErrorStatus(new ErrorResponseException(HttpStatus.BAD_REQUEST))).isEqualTo(400);
        assertThat(replay.clientErrorStatus(new RejectedOrder("no"))).isEqualTo(422);
        for (HttpStatus tryAgain : new HttpStatus[] {HttpStatus.UNAUTHORIZED, HttpStatus.FORBIDDEN,
            HttpStatus.REQUEST_TIMEOUT, HttpStatus.CONFLICT, HttpStatus.TOO_EARLY, HttpStatus.TOO_MANY_REQUESTS,
            HttpStatus.SERVICE_UNAVAILABLE, HttpStatus.INTERNAL_SERVER_ERROR}) {
            assertThat(replay.clientErrorStatus(new ResponseStatusException(tryAgain))).as(tryAgain.name()).isZero();
        }
        assertThat(replay.clientErrorStatus(new IllegalArgumentException("bad"))).isZero();
    }

    @Test
    void aReturnedResponseEntityCarriesItsStatusAndAnythingElseNone() {
        assertThat(replay.answerStatus(ResponseEntity.status(429).body("later"))).isEqualTo(429);
        assertThat(replay.answerStatus(ResponseEntity.ok("done"))).isEqualTo(200);
        assertThat(replay.answerStatus("done")).isZero();
        assertThat(replay.answerStatus(null)).isZero();
    }

    @Test
    void aReplayIsTheApplicationsOwnTypeWhenItStillIsThatStatusElseAResponseStatusException() {
        assertThat(replay.rebuild(422, RejectedOrder.class.getName(), "no stock"))
                .isInstanceOf(RejectedOrder.class).hasMessage("no stock");
        // a name read from the store makes nothing but a client error of the same status
        assertThat(replay.rebuild(404, RejectedOrder.class.getName(), "x")).isInstanceOf(ResponseStatusException.class);
        assertThat(replay.rebuild(404, NotAnnotated.class.getName(), "x")).isInstanceOf(ResponseStatusException.class);
        assertThat(replay.rebuild(404, "java.lang.ProcessBuilder", "x")).isInstanceOf(ResponseStatusException.class);
        ResponseStatusException rebuilt = (ResponseStatusException) replay.rebuild(404,
                ResponseStatusException.class.getName(), "no such order");
        assertThat(rebuilt.getStatusCode().value()).isEqualTo(404);
        assertThat(rebuilt.getReason()).isEqualTo("no such order");
        assertThat(replay.detailOf(new ErrorResponseException(HttpStatus.BAD_REQUEST,
                ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "missing sku"), null))).isEqualTo("missing sku");
    }
}
