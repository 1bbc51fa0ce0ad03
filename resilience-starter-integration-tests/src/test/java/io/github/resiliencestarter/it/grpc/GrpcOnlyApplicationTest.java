package io.github.resiliencestarter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.it.grpconly.GrpcOnlyApplication;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A gRPC-only application, with no Spring MVC, WebFlux, servlet API or Spring Security web on its
 * class path, starts with the whole starter and runs an {@code @Idempotent} service method: run in
 * a JVM of its own, this one's class path without the web jars.
 */
class GrpcOnlyApplicationTest {

    /** Jars a gRPC-only application does not have; and the data and migration jars it does not need. */
    private static final List<String> ABSENT = List.of("spring-web-", "spring-webmvc-", "spring-webflux-",
            "spring-boot-web", "spring-boot-starter-web", "spring-boot-tomcat", "spring-boot-webmvc",
            "spring-boot-webflux", "spring-boot-http", "spring-boot-restclient", "spring-boot-servlet",
            "tomcat-embed", "jakarta.servlet", "spring-security-web", "reactor-netty", "flyway", "liquibase",
            "hibernate", "spring-data-jpa", "spring-boot-data-jpa", "spring-boot-jpa", "spring-boot-starter-data-jpa",
            "spring-boot-hibernate", "spring-cloud");

    private static boolean absent(String entry) {
        String file = new File(entry).getName();
        return ABSENT.stream().anyMatch(file::startsWith);
    }

    @Test
    void aGrpcOnlyApplicationStartsWithTheStarterAndItsKeyedMethodRunsOnce() throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !absent(entry)).collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", classPath, GrpcOnlyApplication.class.getName(),
                "--resilience.idempotent.store=memory", "--logging.level.root=WARN"));
        Process run = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();

        assertThat(output).as(output).contains(GrpcOnlyApplication.PASSED);
        assertThat(run.exitValue()).as(output).isZero();
    }
}
