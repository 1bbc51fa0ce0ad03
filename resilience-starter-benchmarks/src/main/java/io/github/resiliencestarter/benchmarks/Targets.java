package io.github.resiliencestarter.benchmarks;

import io.github.resiliencestarter.annotation.CircuitBreaker;
import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.timeout.TimeoutMode;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.retry.annotation.Retryable;

/** The methods the annotation benchmarks call through Spring proxies; each does the same tiny work. */
final class Targets {

    private Targets() {
    }

    static int work(int value) {
        return value * 31 + 7;
    }

    /** No annotation: the baseline, still a Spring bean. */
    static class Plain {

        public int call(int value) {
            return work(value);
        }
    }

    /** Marks the methods of {@link Floor} for the do-nothing advisor. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface ProceedOnly {
    }

    /**
     * The beans every annotation benchmark calls, on either Boot line: the plain bean, the floor
     * with its do-nothing advice (a {@code MethodInterceptor} that only calls {@code proceed()}),
     * and this starter's annotated bean.
     */
    @Configuration(proxyBeanMethods = false)
    static class CommonBeans {

        @Bean
        Plain plain() {
            return new Plain();
        }

        @Bean
        Floor floor() {
            return new Floor();
        }

        @Bean
        static DefaultPointcutAdvisor proceedOnlyAdvisor() {
            MethodInterceptor proceedOnly = MethodInvocation::proceed;
            return new DefaultPointcutAdvisor(AnnotationMatchingPointcut.forMethodAnnotation(ProceedOnly.class),
                    proceedOnly);
        }

        @Bean
        Ours ours() {
            return new Ours();
        }
    }

    /**
     * The floor every annotation pays on the JVM: a Spring proxy whose only advice is a
     * {@code MethodInterceptor} that calls {@code proceed()}.
     */
    static class Floor {

        @ProceedOnly
        public int call(int value) {
            return work(value);
        }
    }

    /** This starter's annotations. */
    static class Ours {

        @CircuitBreaker(name = "bench")
        public int breaker(int value) {
            return work(value);
        }

        @Retry(idempotent = true)
        public int retry(int value) {
            return work(value);
        }

        @Timeout(value = "5s", mode = TimeoutMode.INTERRUPT)
        public int timeoutInterrupt(int value) {
            return work(value);
        }

        // observe mode (docs/rollout.md), set for these names by the benchmark's properties
        @Retry(name = "observedRetry", idempotent = true)
        public int retryObserved(int value) {
            return work(value);
        }

        @Timeout(name = "observedTimeout", value = "5s")
        public int timeoutObserved(int value) {
            return work(value);
        }

        @Timeout("5s")
        public int timeoutOffload(int value) {
            return work(value);
        }

        // a short time to live keeps the memory store bounded while every call claims a new key
        @Timeout(value = "5s", mode = TimeoutMode.INTERRUPT)
        @Idempotent(key = "#key", fingerprint = Idempotent.NO_FINGERPRINT, ttl = "2s")
        @Retry
        public int everything(String key, int value) {
            return work(value);
        }

        // records gone within a young collection's interval: the same path without the heap the
        // memory store keeps for 2 s of new keys (several hundred thousand records the collector copies)
        @Timeout(value = "5s", mode = TimeoutMode.INTERRUPT)
        @Idempotent(key = "#key", fingerprint = Idempotent.NO_FINGERPRINT, ttl = "10ms")
        @Retry
        public int everythingShortLived(String key, int value) {
            return work(value);
        }
    }

    /** Resilience4j's retry and circuit-breaker annotations (default instance settings). */
    static class Resilience4j {

        @io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "bench")
        public int breaker(int value) {
            return work(value);
        }

        @io.github.resilience4j.retry.annotation.Retry(name = "bench")
        public int retry(int value) {
            return work(value);
        }
    }

    /** Spring Retry's annotation. */
    static class SpringRetry {

        @Retryable
        public int retry(int value) {
            return work(value);
        }
    }
}
