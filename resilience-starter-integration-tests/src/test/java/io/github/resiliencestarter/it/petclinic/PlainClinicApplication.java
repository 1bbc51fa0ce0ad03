package io.github.resiliencestarter.it.petclinic;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The application with the starter's dependency added and not one annotation. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ClinicConfiguration.class)
public class PlainClinicApplication {

    @Bean
    OwnerRestController ownerRestController(OwnerRepository owners) {
        return new OwnerRestController(owners);
    }
}
