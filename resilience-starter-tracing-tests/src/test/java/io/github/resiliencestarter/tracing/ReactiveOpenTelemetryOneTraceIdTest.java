package io.github.resiliencestarter.tracing;

import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.Tracer;
import org.springframework.boot.test.context.SpringBootTest;

/** {@link OneTraceIdContract} in Spring WebFlux, with the OpenTelemetry bridge as the tracer. */
@SpringBootTest(classes = ReactiveTracedApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.main.web-application-type=reactive")
@OpenTelemetryOnly
class ReactiveOpenTelemetryOneTraceIdTest extends OneTraceIdContract {

    @Override
    Class<? extends Tracer> bridge() {
        return OtelTracer.class;
    }
}
