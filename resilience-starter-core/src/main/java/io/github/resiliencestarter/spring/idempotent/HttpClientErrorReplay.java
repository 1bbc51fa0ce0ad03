package io.github.resiliencestarter.spring.idempotent;

import io.github.resiliencestarter.idempotent.ClientErrorReplay;
import io.github.resiliencestarter.idempotent.KeptAnswers;
import java.lang.reflect.Constructor;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A client error as Spring MVC and WebFlux answer it: an {@link ErrorResponse} (a
 * {@link ResponseStatusException} among them) or an exception class annotated
 * {@link ResponseStatus}, with a 4xx status {@link KeptAnswers} keeps; and the status of a
 * returned {@link ResponseEntity}. A replay rebuilds an exception of the application's
 * own {@code @ResponseStatus} type from its {@code (String)} constructor, so that the application's
 * handlers render it as they did the first time; any other is a {@link ResponseStatusException}
 * with the same status and detail.
 */
public final class HttpClientErrorReplay implements ClientErrorReplay {

    @Override
    public int answerStatus(@Nullable Object value) {
        return value instanceof ResponseEntity<?> entity ? entity.getStatusCode().value() : 0;
    }

    @Override
    public int clientErrorStatus(Throwable failure) {
        int status = statusOf(failure.getClass(), failure);
        return KeptAnswers.keepsClientError(status) ? status : 0;
    }

    @Override
    public @Nullable String detailOf(Throwable failure) {
        if (failure instanceof ResponseStatusException statusException) {
            return statusException.getReason();
        }
        if (failure instanceof ErrorResponse errorResponse) {
            return errorResponse.getBody().getDetail();
        }
        return failure.getMessage();
    }

    @Override
    public Throwable rebuild(int status, String failureType, @Nullable String detail) {
        Throwable own = ownType(status, failureType, detail);
        return own != null ? own : new ResponseStatusException(HttpStatusCode.valueOf(status), detail);
    }

    /**
     * The application's own exception, when its class still is the {@code @ResponseStatus} type it
     * was: a name read from the store never makes anything else.
     */
    private static @Nullable Throwable ownType(int status, String failureType, @Nullable String detail) {
        try {
            Class<?> type = ClassUtils.forName(failureType, HttpClientErrorReplay.class.getClassLoader());
            if (!Throwable.class.isAssignableFrom(type) || ErrorResponse.class.isAssignableFrom(type)
                    || statusOf(type, null) != status) {
                return null;
            }
            Constructor<?> constructor = type.getConstructor(String.class);
            return (Throwable) constructor.newInstance(detail);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException notRebuildable) {
            return null;
        }
    }

    private static int statusOf(Class<?> type, @Nullable Throwable failure) {
        if (failure instanceof ErrorResponse errorResponse) {
            return errorResponse.getStatusCode().value();
        }
        ResponseStatus declared = AnnotatedElementUtils.findMergedAnnotation(type, ResponseStatus.class);
        return declared == null ? 0 : declared.code().value();
    }
}
