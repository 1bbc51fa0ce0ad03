package io.github.resiliencestarter.benchmarks.load;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What the load sends: the next request, how its answer is read, and what the mix learns from the
 * answer. {@link OrderRequests} is the sample's mix; {@link TemplateRequests} sends one request
 * template to any service, with duplicates, for the recipe in docs/load-testing.md.
 */
interface RequestMix {

    /**
     * The next request.
     *
     * @return the request
     */
    Sent next();

    /**
     * How answers are read: a mix that compares bodies keeps them, others discard them.
     *
     * @return the body handler
     */
    HttpResponse.BodyHandler<String> bodies();

    /**
     * An answer arrived.
     *
     * @param sent the request
     * @param status its HTTP status
     * @param body its body, or {@code null} when {@link #bodies()} discards it
     */
    void answered(Sent sent, int status, String body);

    /**
     * The mix's own counts, as the members of a JSON object ({@code "a":1,"b":2}), or empty.
     *
     * @return the JSON members
     */
    String report();

    /**
     * One request sent.
     *
     * @param request the HTTP request
     * @param key the idempotency key it carries, or {@code null}
     * @param duplicate whether it repeats an earlier request of the run
     */
    record Sent(HttpRequest request, String key, boolean duplicate) {
    }
}
