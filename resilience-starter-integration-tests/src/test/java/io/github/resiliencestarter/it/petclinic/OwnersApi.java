package io.github.resiliencestarter.it.petclinic;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.context.request.NativeWebRequest;

/**
 * A controller interface as OpenAPI Generator writes it: the mappings on the interface, a default
 * {@code getRequest()} accessor, the implementation in the application.
 */
public interface OwnersApi {

    /** What a client sends to create or update an owner. */
    record OwnerFields(@NotBlank String firstName, @NotBlank String lastName) {
    }

    /** What the API answers. */
    record OwnerDto(Integer id, String firstName, String lastName) {
    }

    default Optional<NativeWebRequest> getRequest() {
        return Optional.empty();
    }

    @PostMapping("/api/owners")
    ResponseEntity<OwnerDto> addOwner(@Valid @RequestBody OwnerFields owner);

    @GetMapping("/api/owners/{ownerId}")
    ResponseEntity<OwnerDto> getOwner(@PathVariable("ownerId") Integer ownerId);

    @PutMapping("/api/owners/{ownerId}")
    ResponseEntity<OwnerDto> updateOwner(@PathVariable("ownerId") Integer ownerId,
            @Valid @RequestBody OwnerFields owner);
}
