/**
 * The Spring AOP layer over the engines: one {@code MethodInterceptor} advisor per annotation,
 * per-method settings resolved once and cached, fallback methods resolved and checked at startup,
 * and the fixed advisor order of {@link io.github.resiliencestarter.spring.aop.ResilienceAdvisorOrder}.
 */
@NullMarked
package io.github.resiliencestarter.spring.aop;

import org.jspecify.annotations.NullMarked;
