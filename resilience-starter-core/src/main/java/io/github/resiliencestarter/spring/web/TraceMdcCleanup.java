package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.context.TraceContextHolder;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import org.slf4j.MDC;

/**
 * Removes the trace id from the MDC when the container is done with a request. The trace filter
 * leaves it there after a failure so that the container's own ERROR line carries it; this is
 * where it goes, on every container, whether or not an error page was rendered.
 */
public class TraceMdcCleanup implements ServletRequestListener {

    @Override
    public void requestDestroyed(ServletRequestEvent event) {
        MDC.remove(TraceContextHolder.MDC_TRACE_ID);
    }
}
