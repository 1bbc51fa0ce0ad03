package io.github.resiliencestarter.autoconfigure.slice;

import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;

/** {@link WebMvcSliceContract} under Spring Boot 3's {@code @WebMvcTest}. */
@WebMvcTest
class WebMvcSliceTest extends WebMvcSliceContract {
}
