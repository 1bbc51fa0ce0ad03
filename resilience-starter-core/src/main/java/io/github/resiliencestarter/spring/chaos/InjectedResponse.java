package io.github.resiliencestarter.spring.chaos;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/** The answer of an injected status: no body, and a header saying it was injected. */
final class InjectedResponse implements ClientHttpResponse {

    /** Marks an answer the starter made up, so no one mistakes it for the server's. */
    static final String MARKER = "X-Resilience-Chaos-Injected";

    private final int status;

    private final HttpHeaders headers = new HttpHeaders();

    InjectedResponse(int status) {
        this.status = status;
        headers.add(MARKER, "true");
    }

    @Override
    public HttpStatusCode getStatusCode() {
        return HttpStatusCode.valueOf(status);
    }

    @Override
    public String getStatusText() {
        return "Injected by resilience.chaos";
    }

    @Override
    public void close() {
        // nothing was opened
    }

    @Override
    public InputStream getBody() {
        return new ByteArrayInputStream(new byte[0]);
    }

    @Override
    public HttpHeaders getHeaders() {
        return headers;
    }
}
