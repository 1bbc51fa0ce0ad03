package io.github.resiliencestarter.spring.aop;

import java.lang.annotation.Annotation;

/**
 * Names an annotation that proves a method idempotent to the {@link RetrySafetyGate}. The
 * starter registers one for {@code @Idempotent}; an application adds a bean of this type for its
 * own marker annotation.
 */
@FunctionalInterface
public interface IdempotencyMarker {

    /**
     * The annotation.
     *
     * @return the annotation type
     */
    Class<? extends Annotation> annotationType();
}
