package io.github.resiliencestarter.spring.task;

import com.alibaba.ttl.TtlRunnable;
import org.springframework.core.task.TaskDecorator;

/**
 * Wraps tasks so they run with the submitter's trace context, other TTL values and MDC, and leave
 * the worker as they found it. Boot applies it to its task executor (and so to {@code @Async}).
 */
public class TraceContextTaskDecorator implements TaskDecorator {

    @Override
    public Runnable decorate(Runnable runnable) {
        return TtlRunnable.get(runnable, false, true);
    }
}
