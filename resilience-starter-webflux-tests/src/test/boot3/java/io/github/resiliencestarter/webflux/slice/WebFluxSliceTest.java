package io.github.resiliencestarter.webflux.slice;

import org.springframework.boot.test.autoconfigure.web.reactive.WebFluxTest;

/** {@link WebFluxSliceContract} under Spring Boot 3's {@code @WebFluxTest}. */
@WebFluxTest
class WebFluxSliceTest extends WebFluxSliceContract {
}
