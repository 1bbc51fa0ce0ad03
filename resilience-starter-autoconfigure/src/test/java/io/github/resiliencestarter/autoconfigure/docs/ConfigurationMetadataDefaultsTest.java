package io.github.resiliencestarter.autoconfigure.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.resiliencestarter.autoconfigure.RenamedProperties;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.util.ClassUtils;

/**
 * The IDE shows every default: each property whose properties class starts with a value has that
 * value as {@code defaultValue} in the metadata (generated, merged with
 * {@code additional-spring-configuration-metadata.json}). Run with
 * {@code -Dresilience.metadata.write=true} to rewrite the additional file after changing a default.
 */
class ConfigurationMetadataDefaultsTest {

    private static final Path ADDITIONAL = Path.of("src", "main", "resources", "META-INF",
            "additional-spring-configuration-metadata.json");

    /** Properties with no default, and why: each means "none" when unset. */
    private static final Map<String, String> NO_DEFAULT = Map.of(
            "resilience.idempotent.encryption.active-key", "no encryption until keys are configured",
            "resilience.idempotent.redis.replica-acks", "decided by the connection: all through Sentinel, else 0",
            "resilience.messaging.default-budget", "a message without an expiry has no deadline",
            "resilience.trace.default-budget", "a request without a budget has no deadline",
            "resilience.retry.attempt-timeout", "attempts are bounded by the deadline only",
            "resilience.retry.max-delay", "1s for exponential back-off, raised by a larger delay, none for fixed");

    private static JsonNode metadata() throws Exception {
        try (InputStream in = ConfigurationMetadataDefaultsTest.class
                .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    @Test
    void everyPropertyHasADefaultOrSaysWhyNot() throws Exception {
        List<String> missing = new ArrayList<>();
        for (JsonNode property : metadata().get("properties")) {
            String name = property.get("name").asText();
            String type = property.path("type").asText();
            boolean collection = type.startsWith("java.util.List") || type.startsWith("java.util.Map")
                    || type.startsWith("java.util.Set");
            if (property.has("defaultValue") || property.has("deprecation") || collection
                    || NO_DEFAULT.containsKey(name)) {
                continue;
            }
            missing.add(name + " (" + type + ")");
        }
        assertThat(missing).as("properties with neither a default nor a reason for none").isEmpty();
        assertThat(NO_DEFAULT.values()).allMatch(reason -> !reason.isBlank());
    }

    @Test
    void descriptionsAreTextNotJavadoc() throws Exception {
        List<String> tagged = new ArrayList<>();
        metadata().get("properties").forEach(property -> {
            if (property.path("description").asText().contains("{@")) {
                tagged.add(property.get("name").asText());
            }
        });
        assertThat(tagged).as("descriptions an IDE would show with raw Javadoc tags").isEmpty();
    }

    @Test
    void failureTypesAndClosedValuesHaveHints() throws Exception {
        JsonNode metadata = metadata();
        Map<String, JsonNode> hints = new LinkedHashMap<>();
        metadata.path("hints").forEach(hint -> hints.put(hint.get("name").asText(), hint));
        List<String> unhinted = new ArrayList<>();
        for (JsonNode property : metadata.get("properties")) {
            String name = property.get("name").asText();
            if (property.path("type").asText().contains("java.lang.Class<? extends java.lang.Throwable>")) {
                JsonNode provider = hints.containsKey(name) ? hints.get(name).path("providers").path(0) : null;
                if (provider == null || !provider.path("name").asText().equals("class-reference")
                        || !provider.path("parameters").path("target").asText().equals("java.lang.Throwable")) {
                    unhinted.add(name);
                }
            }
        }
        assertThat(unhinted).as("failure-type lists without a class-reference hint").isEmpty();
        assertThat(hints.get("resilience.idempotent.redis.replica-acks").path("values"))
                .extracting(value -> value.get("value").asText()).contains("all", "0");
        assertThat(hints.keySet()).allMatch(name -> metadata.get("properties").findValuesAsText("name").contains(name));
    }

    @Test
    void everyRenamedPropertyIsAnErrorNamingItsReplacement() throws Exception {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        metadata.get("properties").forEach(property -> byName.put(property.get("name").asText(), property));
        List<RenamedProperties.Rename> named = RenamedProperties.all().stream()
                .filter(rename -> !rename.from().contains("*")).toList();

        assertThat(named).isNotEmpty();
        for (RenamedProperties.Rename rename : named) {
            JsonNode deprecation = byName.containsKey(rename.from()) ? byName.get(rename.from()).get("deprecation") : null;
            assertThat(deprecation).as(rename.from()).isNotNull();
            assertThat(deprecation.path("level").asText()).isEqualTo("error");
            assertThat(deprecation.path("replacement").asText()).isEqualTo(rename.to());
            assertThat(byName).as("the replacement exists").containsKey(rename.to());
        }
    }

    @Test
    void everyPropertyWithAnInitialValueShowsItAsItsDefault() throws Exception {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        Map<String, JsonNode> expected = new LinkedHashMap<>();
        List<String> wrong = new ArrayList<>();
        for (JsonNode property : metadata.get("properties")) {
            JsonNode initial = initialValue(property);
            if (initial == null) {
                continue;
            }
            String name = property.get("name").asText();
            expected.put(name, initial);
            if (!same(initial, property.get("defaultValue"))) {
                wrong.add(name + ": metadata says " + property.get("defaultValue") + ", the code starts with " + initial);
            }
        }
        if (Boolean.getBoolean("resilience.metadata.write")) {
            write(expected);
            return;
        }
        assertThat(expected).hasSizeGreaterThan(40);
        assertThat(wrong).as("defaults missing or stale in the configuration metadata").isEmpty();
    }

    /** The value a fresh properties object holds, as the metadata spells it, or null when it holds none. */
    private static JsonNode initialValue(JsonNode property) throws Exception {
        JsonNode source = property.get("sourceType");
        if (source == null) {
            return null;
        }
        Class<?> type = ClassUtils.forName(source.asText(), null);
        java.lang.reflect.Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        String name = property.get("name").asText();
        String last = name.substring(name.lastIndexOf('.') + 1);
        BeanWrapperImpl bean = new BeanWrapperImpl(constructor.newInstance());
        String javaName = toCamel(last);
        if (!bean.isReadableProperty(javaName)) {
            return null;
        }
        return toJson(bean.getPropertyValue(javaName));
    }

    private static boolean same(JsonNode initial, JsonNode declared) {
        if (declared != null && initial.isNumber() && declared.isNumber()) {
            return initial.doubleValue() == declared.doubleValue();
        }
        return initial.equals(declared);
    }

    private static JsonNode toJson(Object value) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (value == null || value instanceof Map<?, ?>) {
            return null;
        }
        if (value instanceof Collection<?> values) {
            if (values.isEmpty()) {
                return null;
            }
            ArrayNode array = json.arrayNode();
            values.forEach(item -> array.add(item instanceof Class<?> c ? c.getName() : String.valueOf(item)));
            return array;
        }
        if (value instanceof Duration duration) {
            return json.textNode(format(duration));
        }
        if (value instanceof Enum<?> constant) {
            return json.textNode(constant.name().toLowerCase().replace('_', '-'));
        }
        if (value instanceof Boolean flag) {
            return json.booleanNode(flag);
        }
        if (value instanceof Integer || value instanceof Long) {
            return json.numberNode(((Number) value).longValue());
        }
        if (value instanceof Double number) {
            return json.numberNode(number);
        }
        return json.textNode(String.valueOf(value));
    }

    private static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis != 0 && millis % 86_400_000 == 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }

    private static String toCamel(String kebab) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : kebab.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    private static void write(Map<String, JsonNode> defaults) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode properties = root.putArray("properties");
        defaults.forEach((name, value) -> properties.addObject().put("name", name).set("defaultValue", value));
        // each renamed property, flagged by the IDE as an error naming its replacement (instance names cannot be)
        for (RenamedProperties.Rename rename : RenamedProperties.all()) {
            if (!rename.from().contains("*")) {
                ObjectNode deprecation = properties.addObject().put("name", rename.from()).putObject("deprecation");
                deprecation.put("level", "error").put("replacement", rename.to()).put("reason", rename.change());
            }
        }
        JsonNode hints = mapper.readTree(ADDITIONAL.toFile()).get("hints");
        if (hints != null) {
            root.set("hints", hints);
        }
        Files.writeString(ADDITIONAL, mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    }
}
