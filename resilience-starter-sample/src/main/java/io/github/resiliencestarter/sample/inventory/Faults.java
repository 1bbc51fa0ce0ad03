package io.github.resiliencestarter.sample.inventory;

import java.util.concurrent.ThreadLocalRandom;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;

/**
 * Faults the inventory injects, settable at run time: a latency, and a share of requests that
 * fail with a given status. Also remembers the last budget the inventory was granted.
 */
@Component
public class Faults {

    /**
     * The fault settings.
     *
     * @param latencyMs added latency per request
     * @param failureRate share of requests that fail, 0 to 1
     * @param failureStatus the status failed requests get
     */
    public record Settings(long latencyMs, double failureRate, int failureStatus) {
    }

    private volatile Settings settings = new Settings(0, 0, 503);

    private volatile String lastBudgetMs;

    /** @return the current settings */
    public Settings settings() {
        return settings;
    }

    /**
     * Replaces the settings.
     *
     * @param value the new settings
     */
    public void set(Settings value) {
        if (value.failureRate() < 0 || value.failureRate() > 1 || value.latencyMs() < 0
                || HttpStatus.resolve(value.failureStatus()) == null) {
            throw new IllegalArgumentException("latencyMs >= 0, failureRate in [0, 1], failureStatus an HTTP status");
        }
        this.settings = value;
    }

    /** @return the last {@code X-Timeout-Budget-Ms} the inventory received */
    public String lastBudgetMs() {
        return lastBudgetMs;
    }

    /**
     * Applies the faults to the current request.
     *
     * @param budgetMs the budget header received, or {@code null}
     * @throws InterruptedException when the caller's deadline interrupts the latency
     */
    public void apply(String budgetMs) throws InterruptedException {
        lastBudgetMs = budgetMs;
        Settings current = settings;
        if (current.latencyMs() > 0) {
            Thread.sleep(current.latencyMs());
        }
        if (current.failureRate() > 0 && ThreadLocalRandom.current().nextDouble() < current.failureRate()) {
            throw new ResponseStatusException(HttpStatus.valueOf(current.failureStatus()), "injected failure");
        }
    }
}
