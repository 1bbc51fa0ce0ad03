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
 * docs/internals/rules.md names every rule id of the project's RULES.md, every test it names exists, and
 * every rule id starts the name of at least one test.
 */
class RulesTableTest {

    private static final Path REPOSITORY = Path.of("..");

    private static final Pattern TEST_NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*)\\.([A-Za-z][A-Za-z0-9_]*)`");

    /** The rule ids of the shared RULES.md beside the repository: T-1, T-P2, R-S1, ... */
    private static Set<String> ruleIds() throws IOException {
        Path rules = REPOSITORY.resolve("../shared/RULES.md");
        assertThat(rules).as("the project's shared RULES.md beside the repository").exists();
        Set<String> ids = new TreeSet<>();
        Matcher matcher = Pattern.compile("\\*\\*([TRICO]-(?:P|S)?[0-9]+)").matcher(Files.readString(rules));
        while (matcher.find()) {
            ids.add(matcher.group(1));
        }
        assertThat(ids).hasSizeGreaterThan(40);
        return ids;
    }

    /** Every test source of every module, each prefixed with its file name and a line break. */
    private static List<String> testSources() throws IOException {
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
        return sources;
    }

    @Test
    void everyRuleIdOfTheRulesIsInTheTable() throws IOException {
        String table = Files.readString(REPOSITORY.resolve("docs/internals/rules.md"));
        assertThat(ruleIds()).allSatisfy(id -> assertThat(table).contains("| " + id + " |"));
    }

    @Test
    void everyRuleIdStartsTheNameOfATestMethod() throws IOException {
        String allTests = String.join("\n", testSources());
        List<String> unnamed = new ArrayList<>();
        for (String id : ruleIds()) {
            // T-P2 -> "void TP2_..."; the space before it keeps T2 from matching inside TP2
            Pattern named = Pattern.compile("\\svoid\\s+" + Pattern.quote(id.replace("-", "")) + "_\\w*\\s*\\(");
            if (!named.matcher(allTests).find()) {
                unnamed.add(id);
            }
        }
        assertThat(unnamed).as("rule ids that start no test method name").isEmpty();
    }

    @Test
    void everyTestTheTableNamesExists() throws IOException {
        String table = Files.readString(REPOSITORY.resolve("docs/internals/rules.md"));
        List<String> sources = testSources();
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
        assertThat(missing).as("tests named in docs/internals/rules.md that do not exist").isEmpty();
    }
}
