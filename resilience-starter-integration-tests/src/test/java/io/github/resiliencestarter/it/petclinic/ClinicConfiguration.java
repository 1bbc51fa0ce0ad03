package io.github.resiliencestarter.it.petclinic;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/** What both versions of the application share: HTTP Basic, method security, its own advice. */
@Configuration(proxyBeanMethods = false)
@EnableMethodSecurity
@Import(ExceptionControllerAdvice.class)
public class ClinicConfiguration {

    @Bean
    SecurityFilterChain clinicSecurity(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults()).csrf(csrf -> csrf.disable()).build();
    }

    @Bean
    InMemoryUserDetailsManager clinicUsers() {
        return new InMemoryUserDetailsManager(
                User.withUsername("admin").password("{noop}admin").roles("OWNER_ADMIN").build(),
                User.withUsername("vet").password("{noop}vet").roles("VET").build());
    }
}
