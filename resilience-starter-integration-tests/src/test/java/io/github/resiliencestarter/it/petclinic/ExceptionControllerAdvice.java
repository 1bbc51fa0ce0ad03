package io.github.resiliencestarter.it.petclinic;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * The application's own advice, as spring-petclinic-rest has it: validation is a 400, and anything
 * else a 500 titled with the exception's class.
 */
@ControllerAdvice
public class ExceptionControllerAdvice {

    @ExceptionHandler(MethodArgumentNotValidException.class)
    ResponseEntity<ProblemDetail> invalid(MethodArgumentNotValidException error) {
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
        problem.setTitle("Invalid owner");
        return ResponseEntity.badRequest().body(problem);
    }

    /** Left to Spring Security, which answers 401 or 403. */
    @ExceptionHandler(AccessDeniedException.class)
    void denied(AccessDeniedException error) {
        throw error;
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> any(Exception error) {
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.INTERNAL_SERVER_ERROR);
        problem.setTitle(error.getClass().getSimpleName());
        return ResponseEntity.internalServerError().body(problem);
    }
}
