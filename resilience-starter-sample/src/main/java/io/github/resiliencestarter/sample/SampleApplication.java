package io.github.resiliencestarter.sample;

import org.mybatis.spring.annotation.MapperScan;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The order service. Starts on embedded defaults: no external server is needed. */
@SpringBootApplication
@MapperScan(basePackages = "io.github.resiliencestarter.sample", annotationClass = org.apache.ibatis.annotations.Mapper.class)
public class SampleApplication {

    /**
     * Starts the application.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
