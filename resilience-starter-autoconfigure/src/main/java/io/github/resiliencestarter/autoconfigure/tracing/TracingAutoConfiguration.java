package io.github.resiliencestarter.autoconfigure.tracing;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.context.TraceIdSource;
import io.github.resiliencestarter.micrometer.TracerTraceIds;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer Tracing on the class path, the tracer's current trace id is the request's: the
 * web filters, the gRPC server interceptor and the message listeners ask it first, so the MDC,
 * {@code X-Trace-Id} and the tracer's own propagation downstream carry one id. The tracer is
 * looked up on each request, so it may be configured after this; without a tracer bean nothing
 * changes.
 */
@AutoConfiguration
@ConditionalOnResilienceEnabled
@ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
public class TracingAutoConfiguration {

    /**
     * The tracer's trace ids.
     *
     * @param tracer the application's tracer, if it has one
     * @return the source the entry points ask first
     */
    @Bean
    @ConditionalOnMissingBean(TraceIdSource.class)
    public TracerTraceIds tracerTraceIds(ObjectProvider<Tracer> tracer) {
        return new TracerTraceIds(tracer::getIfAvailable);
    }
}
