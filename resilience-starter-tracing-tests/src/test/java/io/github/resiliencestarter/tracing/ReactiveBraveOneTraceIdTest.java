package io.github.resiliencestarter.tracing;

import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.Tracer;
import org.springframework.boot.test.context.SpringBootTest;

/** {@link OneTraceIdContract} in Spring WebFlux, with Brave as the tracer. */
@SpringBootTest(classes = ReactiveTracedApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.main.web-application-type=reactive")
@BraveOnly
class ReactiveBraveOneTraceIdTest extends OneTraceIdContract {

    @Override
    Class<? extends Tracer> bridge() {
        return BraveTracer.class;
    }
}
