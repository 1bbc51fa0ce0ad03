package io.github.resiliencestarter.autoconfigure.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/configuration.md documents every property the generated metadata knows. */
class ConfigurationReferenceTest {

    @Test
    void everyPropertyOfTheMetadataIsInTheConfigurationReference() throws Exception {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        String reference = Files.readString(Path.of("..", "docs", "configuration.md"));
        List<String> missing = new ArrayList<>();
        for (JsonNode property : metadata.get("properties")) {
            String name = property.get("name").asText();
            if (!reference.contains("`" + name) || name.isBlank()) {
                missing.add(name);
            }
        }
        assertThat(metadata.get("properties").size()).isGreaterThan(40);
        assertThat(missing).as("properties missing from docs/configuration.md").isEmpty();
    }
}
