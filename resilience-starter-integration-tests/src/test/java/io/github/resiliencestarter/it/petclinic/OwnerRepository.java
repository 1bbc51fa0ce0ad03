package io.github.resiliencestarter.it.petclinic;

import org.springframework.data.jpa.repository.JpaRepository;

/** Spring Data JPA, as the application uses it. */
public interface OwnerRepository extends JpaRepository<Owner, Integer> {
}
