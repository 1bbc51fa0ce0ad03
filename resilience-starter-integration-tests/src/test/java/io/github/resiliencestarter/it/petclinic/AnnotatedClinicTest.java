package io.github.resiliencestarter.it.petclinic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.resiliencestarter.spring.aop.TimeoutOperationSource;
import io.github.resiliencestarter.spring.web.ResilienceExceptionHandler;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/**
 * The annotations added as the docs show them: the application's own tests still pass, a keyed
 * create replays, a write that requires a key answers the documented 400, the generated
 * interface's accessor is not governed, and standalone MockMvc with the starter's advice beside the
 * application's answers as the server does.
 */
@SpringBootTest(classes = AnnotatedClinicApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.datasource.url=jdbc:hsqldb:mem:annotated_clinic",
            // as petclinic: its database holds the records (this module also has Redis on its classpath)
            "resilience.idempotent.store=jdbc"})
class AnnotatedClinicTest extends ClinicContract {

    @Autowired
    private OwnerRestController controller;

    @Autowired
    private TimeoutOperationSource timeouts;

    @AfterEach
    void clearAuthentication() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void aKeyedCreateRunsOnceAndReplays() throws Exception {
        String key = UUID.randomUUID().toString();
        int before = OwnerRestController.CREATIONS.get();
        HttpResponse<String> first = send("POST", "/api/owners", ADMIN, owner("Jean"), "Idempotency-Key", key);
        HttpResponse<String> replay = send("POST", "/api/owners", ADMIN, owner("Jean"), "Idempotency-Key", key);

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        JsonNode firstBody = JSON.readTree(first.body());
        assertThat(JSON.readTree(replay.body()).get("id")).isEqualTo(firstBody.get("id"));
        assertThat(OwnerRestController.CREATIONS.get()).isEqualTo(before + 1);
    }

    @Test
    void anUpdateWithoutItsKeyIsTheDocumented400OverHttp() throws Exception {
        HttpResponse<String> refused = send("PUT", "/api/owners/1", ADMIN, owner("Harold"));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("type").asText())
                .isEqualTo("urn:resilience-starter:problem:idempotency-key-invalid");
    }

    @Test
    void theClassLevelTimeoutGovernsTheOperationsNotTheGeneratedAccessor() {
        // before: the interface's default getRequest() was governed and listed too
        assertThat(timeouts.operations()).extracting(operation -> operation.name()).containsOnly(
                "AnnotatedOwnerRestController.addOwner", "AnnotatedOwnerRestController.getOwner",
                "AnnotatedOwnerRestController.updateOwner");
    }

    @Test
    void standaloneMockMvcAnswersAsTheServerWhenGivenTheStartersAdviceBesideTheApplications() throws Exception {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "admin", null, List.of(new SimpleGrantedAuthority("ROLE_OWNER_ADMIN"))));
        MockMvc applicationsOwn = MockMvcBuilders.standaloneSetup(controller)
                .setControllerAdvice(new ExceptionControllerAdvice()).build();
        MockMvc withTheStarters = MockMvcBuilders.standaloneSetup(controller)
                .setControllerAdvice(new ExceptionControllerAdvice(), new ResilienceExceptionHandler()).build();

        // what petclinic's standalone tests met: the catch-all turns the 400 into a 500 named after a class
        applicationsOwn.perform(put("/api/owners/1").contentType(MediaType.APPLICATION_JSON).content(owner("Harold")))
                .andExpect(status().isInternalServerError()).andExpect(jsonPath("$.title").value("IdempotencyKeyException"));
        withTheStarters.perform(put("/api/owners/1").contentType(MediaType.APPLICATION_JSON).content(owner("Harold")))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:resilience-starter:problem:idempotency-key-invalid"));
    }
}
