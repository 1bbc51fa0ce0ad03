package io.github.resiliencestarter.it.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the application's own tests check, over real HTTP, behind HTTP Basic and method security,
 * on HSQLDB: run with the starter's dependency alone and again with its annotations, the answers
 * are the same.
 */
abstract class ClinicContract {

    static final ObjectMapper JSON = new ObjectMapper();

    static final String ADMIN = "admin:admin";

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    HttpResponse<String> send(String method, String path, String credentials, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (credentials != null) {
            request.header("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String owner(String firstName) {
        return "{\"firstName\":\"" + firstName + "\",\"lastName\":\"Franklin\"}";
    }

    @Test
    void anOwnerIsCreatedAndReadBack() throws Exception {
        HttpResponse<String> created = send("POST", "/api/owners", ADMIN, owner("George"));
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode body = JSON.readTree(created.body());
        assertThat(created.headers().firstValue("Location")).hasValue("/api/owners/" + body.get("id").asInt());

        HttpResponse<String> read = send("GET", "/api/owners/" + body.get("id").asInt(), "vet:vet", null);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(read.body()).get("firstName").asText()).isEqualTo("George");
        assertThat(send("GET", "/api/owners/999999", ADMIN, null).statusCode()).isEqualTo(404);
    }

    @Test
    void keylessCreatesRunEachTimeAsBefore() throws Exception {
        int before = OwnerRestController.CREATIONS.get();
        HttpResponse<String> first = send("POST", "/api/owners", ADMIN, owner("Betty"));
        HttpResponse<String> second = send("POST", "/api/owners", ADMIN, owner("Betty"));

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(second.statusCode()).isEqualTo(201);
        assertThat(JSON.readTree(second.body()).get("id")).isNotEqualTo(JSON.readTree(first.body()).get("id"));
        assertThat(OwnerRestController.CREATIONS.get()).isEqualTo(before + 2);
    }

    @Test
    void securityAndValidationAnswerAsTheApplicationDecided() throws Exception {
        assertThat(send("POST", "/api/owners", null, owner("Eduardo")).statusCode()).isEqualTo(401);
        assertThat(send("POST", "/api/owners", "vet:vet", owner("Eduardo")).statusCode()).isEqualTo(403);
        HttpResponse<String> invalid = send("POST", "/api/owners", ADMIN, owner(" "));
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(invalid.body()).get("title").asText()).isEqualTo("Invalid owner");
    }
}
