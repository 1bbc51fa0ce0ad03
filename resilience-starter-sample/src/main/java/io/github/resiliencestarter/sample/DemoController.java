package io.github.resiliencestarter.sample;

import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Small endpoints that show {@code @Timeout} and the trace context on their own. */
@RestController
public class DemoController {

    private static final Logger log = LoggerFactory.getLogger(DemoController.class);

    /**
     * Sleeps for {@code sleepMs} under a 200 ms timeout: 504 with a problem body when longer.
     *
     * @param sleepMs how long to work
     * @return what the call saw
     * @throws InterruptedException when the timeout interrupts the sleep
     */
    @GetMapping("/demo/slow")
    @Timeout("${sample.slow-timeout:200ms}")
    public Map<String, Object> slow(@RequestParam(defaultValue = "2000") long sleepMs) throws InterruptedException {
        log.info("slow call started, will sleep {} ms", sleepMs);
        Thread.sleep(sleepMs);
        log.info("slow call finished");
        return Map.of("sleptMs", sleepMs, "traceId", String.valueOf(TraceContextHolder.current().traceId()));
    }

    /**
     * The trace id and remaining budget this request sees.
     *
     * @return the trace id and the remaining budget in milliseconds (-1 when there is none)
     */
    @GetMapping("/demo/context")
    public Map<String, Object> context() {
        TraceContext context = TraceContextHolder.current();
        long remaining = context.deadline() != null ? context.deadline().remainingMillis() : -1;
        return Map.of("traceId", String.valueOf(context.traceId()), "remainingBudgetMs", remaining);
    }
}
