package io.github.resiliencestarter.autoconfigure.slice;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;

/** {@link WebMvcSliceContract} under Spring Boot 4's {@code @WebMvcTest}. */
@WebMvcTest
class WebMvcSliceTest extends WebMvcSliceContract {
}
