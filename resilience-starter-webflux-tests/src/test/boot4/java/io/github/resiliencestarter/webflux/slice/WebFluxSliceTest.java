package io.github.resiliencestarter.webflux.slice;

import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;

/** {@link WebFluxSliceContract} under Spring Boot 4's {@code @WebFluxTest}. */
@WebFluxTest
class WebFluxSliceTest extends WebFluxSliceContract {
}
