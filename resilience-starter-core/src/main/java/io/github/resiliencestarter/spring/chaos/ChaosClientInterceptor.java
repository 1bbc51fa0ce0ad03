package io.github.resiliencestarter.spring.chaos;

import io.github.resiliencestarter.chaos.FaultInjector;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Injects the fault of an outbound request's destination into {@code RestClient} and
 * {@code RestTemplate} calls: a latency before sending, an exception instead of sending, or an
 * error status answered without sending ({@link InjectedResponse}).
 */
public class ChaosClientInterceptor implements ClientHttpRequestInterceptor {

    private final FaultInjector injector;

    /**
     * Creates the interceptor.
     *
     * @param injector the injector
     */
    public ChaosClientInterceptor(FaultInjector injector) {
        this.injector = injector;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        URI uri = request.getURI();
        Integer status;
        try {
            status = injector.beforeRequest(String.valueOf(uri.getHost()), uri.getPort());
        } catch (IOException | RuntimeException | Error ex) {
            throw ex;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during an injected latency");
        } catch (Throwable other) {
            // a checked exception a client cannot throw: as the HTTP client would wrap it
            throw new IOException(other.getMessage(), other);
        }
        return status != null ? new InjectedResponse(status) : execution.execute(request, body);
    }
}
