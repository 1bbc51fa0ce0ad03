package io.github.resiliencestarter.autoconfigure.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the user guide names exists: every {@code resilience.*} name in it is a property (or a group
 * of them, an entry of a map property, a renamed property), or a meter, tag, observation or event
 * name the code uses; every problem type it names (a status and a type, {@code 503 `circuit-open`},
 * or a full type URI) is one the code answers; and each Chinese page names the same properties as
 * its English original.
 */
class DocumentedNamesTest {

    private static final Path REPOSITORY = Path.of("..");

    /** A name under resilience., not a file's (grafana/resilience.json). */
    private static final Pattern NAME = Pattern.compile("(?<![/\\w])resilience\\.[a-z0-9][a-z0-9_.\\-\\[\\]<>*]*[a-z0-9_>\\]*]");

    private static final Pattern PROBLEM_TYPE = Pattern.compile(
            "\\b[45]\\d\\d `([a-z]+(?:-[a-z]+)+)`|urn:resilience-starter:problem:([a-z]+(?:-[a-z]+)+)");

    private static final Pattern LITERAL = Pattern.compile("\"([a-z0-9][a-z0-9._\\-]*)\"");

    private static final Set<String> PROPERTIES = new TreeSet<>();

    /** Properties whose values are maps: anything below them is an entry. */
    private static final Set<String> MAPS = new TreeSet<>();

    /** String literals of the main sources: meter, tag, event and observation names, problem types. */
    private static final Set<String> LITERALS = new TreeSet<>();

    @BeforeAll
    static void readWhatExists() throws IOException {
        JsonNode metadata;
        try (InputStream in = DocumentedNamesTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        for (JsonNode property : metadata.get("properties")) {
            String name = property.get("name").asText();
            PROPERTIES.add(name);
            if (property.path("type").asText().startsWith("java.util.Map")) {
                MAPS.add(name);
            }
        }
        for (String module : List.of("resilience-starter-core", "resilience-starter-autoconfigure",
                "resilience-starter-sample")) {
            try (Stream<Path> sources = Files.walk(REPOSITORY.resolve(module).resolve("src/main/java"))) {
                for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                    Matcher literal = LITERAL.matcher(Files.readString(source));
                    while (literal.find()) {
                        LITERALS.add(literal.group(1));
                    }
                }
            }
        }
    }

    /** The user guide: the READMEs and docs/, not the engineering record. */
    private static List<Path> userDocs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(REPOSITORY.resolve("README.md"), REPOSITORY.resolve("README.zh-CN.md")));
        try (Stream<Path> files = Files.walk(REPOSITORY.resolve("docs"))) {
            files.filter(path -> path.toString().endsWith(".md") && !path.toString().contains("internals"))
                    .sorted().forEach(docs::add);
        }
        return docs;
    }

    private static boolean exists(String name) {
        String plain = name.replaceAll("\\.$", "");
        if (PROPERTIES.contains(plain) || LITERALS.contains(plain) || plain.endsWith(".*")) {
            return true;
        }
        // a group of properties, or an entry of a map property (instances.<name>.delay, faults[x].share)
        if (PROPERTIES.stream().anyMatch(property -> property.startsWith(plain + "."))) {
            return true;
        }
        if (MAPS.stream().anyMatch(map -> plain.startsWith(map + ".") || plain.startsWith(map + "["))) {
            return true;
        }
        // an event of a family the code names by its prefix (resilience.idempotent.<outcome>,
        // resilience.timeout.<outcome>): one more segment, an outcome tag (in_progress), never a property's shape
        return LITERALS.stream().anyMatch(literal -> literal.endsWith(".") && literal.chars().filter(c -> c == '.')
                .count() >= 2 && plain.startsWith(literal) && plain.substring(literal.length()).matches("[a-z_]+|<[a-z-]+>"));
    }

    @Test
    void everyResilienceNameInTheGuideExists() throws IOException {
        Map<String, String> unknown = new TreeMap<>();
        for (Path doc : userDocs()) {
            Matcher name = NAME.matcher(Files.readString(doc));
            while (name.find()) {
                if (!exists(name.group())) {
                    unknown.put(name.group(), REPOSITORY.relativize(doc).toString());
                }
            }
        }
        assertThat(PROPERTIES).hasSizeGreaterThan(100);
        assertThat(unknown).as("names in the user guide that neither a property nor the code has").isEmpty();
    }

    @Test
    void everyProblemTypeInTheGuideIsAnswered() throws IOException {
        Map<String, String> unknown = new TreeMap<>();
        int named = 0;
        for (Path doc : userDocs()) {
            Matcher type = PROBLEM_TYPE.matcher(Files.readString(doc));
            while (type.find()) {
                named++;
                String found = type.group(1) != null ? type.group(1) : type.group(2);
                if (!LITERALS.contains(found)) {
                    unknown.put(found, REPOSITORY.relativize(doc).toString());
                }
            }
        }
        assertThat(named).isGreaterThan(5);
        assertThat(unknown).as("problem types the guide names that no code answers").isEmpty();
    }

    @Test
    void eachChinesePageNamesTheSamePropertiesAsItsOriginal() throws IOException {
        Path chinese = REPOSITORY.resolve("docs/zh-CN");
        List<String> differences = new ArrayList<>();
        try (Stream<Path> pages = Files.walk(chinese)) {
            for (Path page : pages.filter(path -> path.toString().endsWith(".md")).toList()) {
                Path original = REPOSITORY.resolve("docs").resolve(chinese.relativize(page));
                if (!Files.exists(original)) {
                    continue;
                }
                Set<String> translated = properties(page);
                Set<String> english = properties(original);
                if (!translated.equals(english)) {
                    Set<String> onlyEnglish = new TreeSet<>(english);
                    onlyEnglish.removeAll(translated);
                    Set<String> onlyChinese = new TreeSet<>(translated);
                    onlyChinese.removeAll(english);
                    differences.add(chinese.relativize(page) + ": only in English " + onlyEnglish + ", only in Chinese "
                            + onlyChinese);
                }
            }
        }
        assertThat(differences).isEmpty();
    }

    private static Set<String> properties(Path page) throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher name = NAME.matcher(Files.readString(page));
        while (name.find()) {
            if (PROPERTIES.contains(name.group())) {
                names.add(name.group());
            }
        }
        return names;
    }
}
