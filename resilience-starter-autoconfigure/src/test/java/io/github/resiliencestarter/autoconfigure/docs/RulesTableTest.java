package io.github.resiliencestarter.autoconfigure.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/rules.md names every rule id of the project's RULES.md, and every test it names exists.
 */
class RulesTableTest {

    private static final Path REPOSITORY = Path.of("..");

    private static final Pattern TEST_NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*)\\.([A-Za-z][A-Za-z0-9_]*)`");

    @Test
    void everyRuleIdOfTheRulesIsInTheTable() throws IOException {
        Path rules = REPOSITORY.resolve("../shared/RULES.md");
        assertThat(rules).as("the project's shared RULES.md beside the repository").exists();
        Set<String> ids = new TreeSet<>();
        Matcher matcher = Pattern.compile("\\*\\*([TRICO]-(?:P|S)?[0-9]+)").matcher(Files.readString(rules));
        while (matcher.find()) {
            ids.add(matcher.group(1));
        }
        String table = Files.readString(REPOSITORY.resolve("docs/rules.md"));
        assertThat(ids).hasSizeGreaterThan(40);
        assertThat(ids).allSatisfy(id -> assertThat(table).contains("| " + id + " |"));
    }

    @Test
    void everyTestTheTableNamesExists() throws IOException {
        String table = Files.readString(REPOSITORY.resolve("docs/rules.md"));
        List<String> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(REPOSITORY)) {
            files.filter(file -> file.toString().contains("/src/test/java/") && file.toString().endsWith(".java"))
                    .forEach(file -> {
                        try {
                            sources.add(file.getFileName() + "\n" + Files.readString(file));
                        } catch (IOException ex) {
                            throw new IllegalStateException(ex);
                        }
                    });
        }
        Matcher matcher = TEST_NAME.matcher(table);
        List<String> missing = new ArrayList<>();
        int named = 0;
        while (matcher.find()) {
            String type = matcher.group(1);
            String method = matcher.group(2);
            if (!type.endsWith("Test") && !type.endsWith("Contract")) {
                continue;
            }
            named++;
            boolean found = sources.stream().anyMatch(source -> source.startsWith(type + ".java\n")
                    && source.contains(" " + method + "("));
            if (!found) {
                missing.add(type + "." + method);
            }
        }
        assertThat(named).isGreaterThan(50);
        assertThat(missing).as("tests named in docs/rules.md that do not exist").isEmpty();
    }
}
