package io.github.resiliencestarter.it.petclinic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.idempotent.IdempotencyActivation;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The dependency added, no annotation: the application's tests pass, and the starter created no
 * store (before: the MySQL script run on HSQLDB failed the context of 195 of petclinic's 237 tests).
 */
@SpringBootTest(classes = PlainClinicApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.datasource.url=jdbc:hsqldb:mem:plain_clinic")
class PlainClinicTest extends ClinicContract {

    @Autowired
    private DataSource dataSource;

    @Autowired
    private IdempotencyActivation idempotency;

    @Test
    void theStarterTouchedNothingOfTheDatabase() {
        assertThat(idempotency.ifActive()).isEmpty();
        assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                + " WHERE LOWER(TABLE_NAME) = 'resilience_idempotency'", Integer.class)).isZero();
    }
}
