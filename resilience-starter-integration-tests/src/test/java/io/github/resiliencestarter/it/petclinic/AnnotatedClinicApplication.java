package io.github.resiliencestarter.it.petclinic;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The application with the starter's annotations added as the docs show them. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ClinicConfiguration.class)
public class AnnotatedClinicApplication {

    @Bean
    OwnerRestController ownerRestController(OwnerRepository owners) {
        return new AnnotatedOwnerRestController(owners);
    }
}
