package io.github.resiliencestarter.it.petclinic;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.RestController;

/** The application's implementation of the generated interface, before the starter's annotations. */
@RestController
public class OwnerRestController implements OwnersApi {

    /** Executions of the create method, across instances. */
    static final AtomicInteger CREATIONS = new AtomicInteger();

    private final OwnerRepository owners;

    OwnerRestController(OwnerRepository owners) {
        this.owners = owners;
    }

    @Override
    @PreAuthorize("hasRole('OWNER_ADMIN')")
    @Transactional
    public ResponseEntity<OwnerDto> addOwner(OwnerFields fields) {
        CREATIONS.incrementAndGet();
        Owner saved = owners.save(new Owner(fields.firstName(), fields.lastName()));
        return ResponseEntity.created(URI.create("/api/owners/" + saved.getId())).body(dto(saved));
    }

    @Override
    @PreAuthorize("hasAnyRole('OWNER_ADMIN', 'VET')")
    public ResponseEntity<OwnerDto> getOwner(Integer ownerId) {
        return owners.findById(ownerId).map(owner -> ResponseEntity.ok(dto(owner)))
                .orElseGet(() -> ResponseEntity.notFound().build());
    }

    @Override
    @PreAuthorize("hasRole('OWNER_ADMIN')")
    @Transactional
    public ResponseEntity<OwnerDto> updateOwner(Integer ownerId, OwnerFields fields) {
        return owners.findById(ownerId).map(owner -> {
            owner.setFirstName(fields.firstName());
            return ResponseEntity.ok(dto(owners.save(owner)));
        }).orElseGet(() -> ResponseEntity.notFound().build());
    }

    private static OwnerDto dto(Owner owner) {
        return new OwnerDto(owner.getId(), owner.getFirstName(), owner.getLastName());
    }
}
