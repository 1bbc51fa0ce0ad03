package io.github.resiliencestarter.autoconfigure.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/**
 * What a {@code @WebMvcTest} of an application with the starter answers, on each Boot line (the
 * subclasses carry that line's {@code @WebMvcTest}): the starter's part of the slice is there, so a
 * missing key is the documented 400 and not the application's catch-all 500 naming a class, a
 * duplicate replays, a deadline is a 504.
 */
@Import({SliceApplication.OrderController.class, SliceApplication.CatchAllAdvice.class})
@ExtendWith(OutputCaptureExtension.class)
public abstract class WebMvcSliceContract {

    @Autowired
    private MockMvc mvc;

    @Test
    void aMissingIdempotencyKeyIsTheDocumented400NotTheCatchAll500() throws Exception {
        mvc.perform(post("/slice/orders").contentType(MediaType.APPLICATION_JSON).content("{\"sku\":\"A\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:resilience-starter:problem:idempotency-key-invalid"))
                .andExpect(header().exists("X-Trace-Id"));
    }

    @Test
    void aDuplicateReplaysTheFirstResponse() throws Exception {
        String key = UUID.randomUUID().toString();
        int before = SliceApplication.EXECUTIONS.get();
        for (int i = 0; i < 2; i++) {
            mvc.perform(post("/slice/orders").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                    .content("{\"sku\":\"A\"}")).andExpect(status().isOk())
                    .andExpect(jsonPath("$.execution").value(before + 1));
        }
        assertThat(SliceApplication.EXECUTIONS.get()).isEqualTo(before + 1);
    }

    @Test
    void aSpentDeadlineIsA504AndOneLogLineNamesTheMethodWithTheTraceId(CapturedOutput output) throws Exception {
        String traceId = mvc.perform(get("/slice/slow")).andExpect(status().isGatewayTimeout())
                .andExpect(jsonPath("$.type").value("urn:resilience-starter:problem:deadline-exceeded"))
                .andReturn().getResponse().getHeader("X-Trace-Id");

        // the client's detail names no method; the log does
        assertThat(output.getOut().lines().filter(line -> line.contains("OrderController.slow")
                && line.contains(traceId) && line.contains("/slice/slow answered 504"))).hasSize(1);
    }
}
