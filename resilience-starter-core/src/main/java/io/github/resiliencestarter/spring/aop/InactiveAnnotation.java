package io.github.resiliencestarter.spring.aop;

/**
 * An annotation found at startup that cannot take effect, and why: Spring's proxies never see
 * calls to a private, static or final method, nor calls on an object that is not a bean.
 *
 * @param method the method, as messages name it
 * @param annotation the annotation, such as {@code @Retry}
 * @param reason why no call will be governed by it
 */
public record InactiveAnnotation(String method, String annotation, String reason) {
}
