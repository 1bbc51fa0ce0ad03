package io.github.resiliencestarter.spring.aop;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The per-method cache the interceptors read on every call: each method and target class resolved
 * once, whichever copy of the {@code Method} a proxy passes, however many methods it holds.
 */
class MethodOperationCacheTest {

    @Test
    void everyCopyOfAMethodGetsTheOneOperationResolvedForIt() throws Exception {
        AtomicInteger resolutions = new AtomicInteger();
        MethodOperationCache<Object> cache = new MethodOperationCache<>((method, target) -> {
            resolutions.incrementAndGet();
            return new Object();
        });
        // two proxies hold two equal, distinct copies of one method
        Method first = String.class.getMethod("length");
        Method second = String.class.getMethod("length");
        assertThat(second).isEqualTo(first).isNotSameAs(first);

        Object operation = cache.get(first, String.class);
        assertThat(cache.get(second, String.class)).isSameAs(operation);
        assertThat(cache.get(first, String.class)).isSameAs(operation);
        assertThat(cache.get(second, String.class)).isSameAs(operation);
        assertThat(resolutions).hasValue(1);
    }

    @Test
    void thousandsOfMethodsAndSeveralTargetClassesEachKeepTheirOwnOperation() {
        Map<String, AtomicInteger> resolutions = new ConcurrentHashMap<>();
        MethodOperationCache<String> cache = new MethodOperationCache<>((method, target) -> {
            String operation = method.toGenericString() + " on " + target;
            resolutions.computeIfAbsent(operation, key -> new AtomicInteger()).incrementAndGet();
            return operation;
        });
        List<Method> methods = new ArrayList<>();
        for (Class<?> type : List.of(String.class, StringBuilder.class, Thread.class, Class.class, Method.class,
                ConcurrentHashMap.class, ArrayList.class, Integer.class, Long.class, Character.class)) {
            methods.addAll(List.of(type.getMethods()));
        }
        assertThat(methods).hasSizeGreaterThan(500);
        for (int round = 0; round < 3; round++) {
            for (Method method : methods) {
                for (Class<?> target : new Class<?>[] {Object.class, Number.class, null}) {
                    assertThat(cache.get(method, target)).isEqualTo(method.toGenericString() + " on " + target);
                }
            }
        }
        // once per method and target class: the methods that several types inherit (Object's) share entries
        assertThat(resolutions.values()).allSatisfy(count -> assertThat(count).hasValue(1));
    }

    @Test
    void aMethodWithoutTheAnnotationIsRememberedAsAbsent() throws Exception {
        AtomicInteger resolutions = new AtomicInteger();
        MethodOperationCache<Object> cache = new MethodOperationCache<>((method, target) -> {
            resolutions.incrementAndGet();
            return null;
        });
        Method method = Object.class.getMethod("hashCode");

        assertThat(cache.get(method, Object.class)).isNull();
        assertThat(cache.get(Object.class.getMethod("hashCode"), Object.class)).isNull();
        assertThat(resolutions).hasValue(1);
    }
}
