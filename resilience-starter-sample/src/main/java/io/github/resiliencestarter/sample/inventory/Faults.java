package io.github.resiliencestarter.sample.inventory;

import io.github.resiliencestarter.sample.BusinessProblem;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
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
     * @param failNext how many of the next requests fail for sure, before the rate applies
     */
    public record Settings(long latencyMs, double failureRate, int failureStatus, int failNext) {
    }

    private volatile Settings settings = new Settings(0, 0, 503, 0);

    private final AtomicInteger failuresLeft = new AtomicInteger();

    private volatile String lastBudgetMs;

    private volatile String lastAttempt;


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
        if (value.failureRate() < 0 || value.failureRate() > 1 || value.latencyMs() < 0 || value.failNext() < 0
                || HttpStatus.resolve(value.failureStatus()) == null) {
            // invalid settings are a 400 problem, never a 500
            throw new BusinessProblem(HttpStatus.BAD_REQUEST, "invalid-faults",
                    "latencyMs >= 0, failureRate within [0, 1], failNext >= 0, failureStatus an HTTP status");
        }
        this.settings = value;
        this.failuresLeft.set(value.failNext());
    }

    /** @return the last {@code X-Timeout-Budget-Ms} the inventory received */
    public String lastBudgetMs() {
        return lastBudgetMs;
    }

    /** @return the last {@code X-Retry-Attempt} the inventory received */
    public String lastAttempt() {
        return lastAttempt;
    }

    /**
     * Applies the faults to the current request.
     *
     * @param budgetMs the budget header received, or {@code null}
     * @param attempt the caller's attempt header, or {@code null}
     * @throws InterruptedException when the caller's deadline interrupts the latency
     */
    public void apply(String budgetMs, String attempt) throws InterruptedException {
        lastBudgetMs = budgetMs;
        lastAttempt = attempt;
        Settings current = settings;
        if (current.latencyMs() > 0) {
            Thread.sleep(current.latencyMs());
        }
        boolean forced = failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0;
        if (forced || (current.failureRate() > 0 && ThreadLocalRandom.current().nextDouble() < current.failureRate())) {
            throw new ResponseStatusException(HttpStatus.valueOf(current.failureStatus()), "injected failure");
        }
    }
}
