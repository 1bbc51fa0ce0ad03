package io.github.resiliencestarter.it.httpinterface;

import io.github.resiliencestarter.annotation.Retry;
import io.github.resiliencestarter.annotation.Timeout;
import io.github.resiliencestarter.timeout.TimeoutMode;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;

/** An HTTP interface client as an application declares one, the starter's annotations on its methods. */
public interface StockApi {

    /**
     * Reads a stock level; retried, as a GET may be.
     *
     * @param item what the server should do: {@code ok}, {@code flaky} (503 twice) or {@code slow}
     * @return the server's answer
     */
    @GetExchange("/stock/{item}")
    @Retry(maxAttempts = 3)
    String stock(@PathVariable String item);

    /**
     * Reads a stock level within 300 ms.
     *
     * @param item what the server should do
     * @return the server's answer
     */
    @GetExchange("/stock/{item}")
    @Timeout(value = "300ms", mode = TimeoutMode.INTERRUPT)
    String stockWithin300ms(@PathVariable String item);
}
