package io.github.resiliencestarter.benchmarks.handwritten;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * What the process has spent so far: CPU time, bytes allocated by its live threads, and the order
 * requests answered. The driver reads it before and after a phase; the differences divided by the
 * requests are the cost per request. Allocation counts live threads only, so the application keeps
 * its server threads for the whole run ({@code server.tomcat.threads.min-spare} equal to the max).
 */
@RestController
public class CostCounters extends OncePerRequestFilter {

    private final LongAdder orderRequests = new LongAdder();

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } finally {
            if (request.getRequestURI().endsWith("/orders")) {
                orderRequests.increment();
            }
        }
    }

    /**
     * The counters now.
     *
     * @return CPU nanoseconds, allocated bytes and order requests since the start
     */
    @GetMapping("/comparison/counters")
    public Map<String, Long> counters() {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long allocated = Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
                .filter(bytes -> bytes > 0).sum();
        return Map.of("cpuNanos", os.getProcessCpuTime(), "allocatedBytes", allocated,
                "requests", orderRequests.sum());
    }
}
