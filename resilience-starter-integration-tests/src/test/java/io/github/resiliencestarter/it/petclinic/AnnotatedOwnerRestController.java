package io.github.resiliencestarter.it.petclinic;

import io.github.resiliencestarter.annotation.Idempotent;
import io.github.resiliencestarter.annotation.Timeout;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.transaction.annotation.Transactional;

/**
 * The same implementation with the starter's annotations as the docs show them: a class-level
 * {@code @Timeout}, and {@code @Idempotent} on the writes; creation keeps working for clients that
 * send no key yet ({@code required = false}), the update requires one.
 */
@Timeout("5s")
public class AnnotatedOwnerRestController extends OwnerRestController {

    AnnotatedOwnerRestController(OwnerRepository owners) {
        super(owners);
    }

    @Override
    @PreAuthorize("hasRole('OWNER_ADMIN')")
    @Transactional
    @Idempotent(required = false)
    public ResponseEntity<OwnerDto> addOwner(OwnerFields fields) {
        return super.addOwner(fields);
    }

    @Override
    @PreAuthorize("hasRole('OWNER_ADMIN')")
    @Transactional
    @Idempotent
    public ResponseEntity<OwnerDto> updateOwner(Integer ownerId, OwnerFields fields) {
        return super.updateOwner(ownerId, fields);
    }
}
