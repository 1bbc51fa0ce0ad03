package io.github.resiliencestarter.tracing;

import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.Tracer;
import org.springframework.boot.test.context.SpringBootTest;

/** {@link OneTraceIdContract} in Spring MVC, with the OpenTelemetry bridge as the tracer. */
@SpringBootTest(classes = TracedApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@OpenTelemetryOnly
class OpenTelemetryOneTraceIdTest extends OneTraceIdContract {

    @Override
    Class<? extends Tracer> bridge() {
        return OtelTracer.class;
    }
}
