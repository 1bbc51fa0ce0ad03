package io.github.resiliencestarter.tracing;

import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.Tracer;
import org.springframework.boot.test.context.SpringBootTest;

/** {@link OneTraceIdContract} in Spring MVC, with Brave as the tracer. */
@SpringBootTest(classes = TracedApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@BraveOnly
class BraveOneTraceIdTest extends OneTraceIdContract {

    @Override
    Class<? extends Tracer> bridge() {
        return BraveTracer.class;
    }
}
