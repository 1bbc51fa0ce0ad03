package io.github.resiliencestarter.spring.redis;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Wraps every {@link RedisConnectionFactory} bean so that its connections refuse to send a command
 * once the request's budget is spent (rule T-P4): a {@link DeadlineExceededException} instead of
 * work nobody waits for. Connection housekeeping (close, state queries) is never refused. The
 * wrapper implements the factory's interfaces, so inject the factory by interface.
 */
public class DeadlineBoundRedisConnectionFactoryPostProcessor implements BeanPostProcessor {

    private static final Set<String> ALWAYS_ALLOWED = Set.of("close", "isClosed", "isQueueing", "isPipelined",
            "getNativeConnection", "getSentinelConnection", "toString", "hashCode", "equals");

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof RedisConnectionFactory && !Proxy.isProxyClass(bean.getClass())) {
            return proxy(bean, factoryHandler(bean));
        }
        return bean;
    }

    private static Object proxy(Object target, InvocationHandler handler) {
        Class<?>[] interfaces = ClassUtils.getAllInterfaces(target);
        return Proxy.newProxyInstance(target.getClass().getClassLoader(), interfaces, handler);
    }

    private static InvocationHandler factoryHandler(Object factory) {
        return (proxy, method, args) -> {
            Object result = invoke(factory, method, args);
            return result instanceof RedisConnection connection ? proxy(connection, connectionHandler(connection))
                    : result;
        };
    }

    private static InvocationHandler connectionHandler(Object connection) {
        return (proxy, method, args) -> {
            if (!ALWAYS_ALLOWED.contains(method.getName())) {
                Deadline deadline = TraceContextHolder.current().deadline();
                if (deadline != null && deadline.isExpired()) {
                    throw DeadlineExceededException.budgetSpent("Redis " + method.getName());
                }
            }
            return invoke(connection, method, args);
        };
    }

    private static @Nullable Object invoke(Object target, Method method, Object @Nullable [] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
    }
}
