package io.github.resiliencestarter.mutation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads PIT's {@code mutations.xml} and fails below a threshold on mutants <em>killed</em>: PIT's
 * own score counts a mutant whose tests ran out of time as detected, though nothing asserted
 * against it. Survivors written down as equivalent (no test can tell them from the original) are
 * counted apart and left out of the total.
 *
 * <p>Run by the build after PIT: {@code PitScore <mutations.xml> <equivalent list> <killed %>}.
 */
public final class PitScore {

    /** One mutant of PIT's report. */
    record Mutant(String status, String mutatedClass, String method, int line, String description) {

        String packageName() {
            int dot = mutatedClass.lastIndexOf('.');
            return dot < 0 ? "" : mutatedClass.substring(0, dot);
        }

        boolean matches(EquivalentMutant equivalent) {
            return mutatedClass.equals(equivalent.mutatedClass()) && method.equals(equivalent.method())
                    && line == equivalent.line() && description.equals(equivalent.description());
        }
    }

    /**
     * A survivor written down as equivalent: class, method, line and PIT's description, and why
     * no test can kill it.
     */
    record EquivalentMutant(String mutatedClass, String method, int line, String description, String why) {
    }

    /** The counts of one set of mutants. */
    record Counts(int all, int killed, int timedOut, int survived, int equivalent, int noCoverage, int other) {

        /** Killed ÷ the mutants that are not equivalent, in %. */
        double killedShare() {
            int counted = all - equivalent;
            return counted == 0 ? 100 : 100.0 * killed / counted;
        }

        String line() {
            return String.format(Locale.ROOT,
                    "%5d mutants: %5d killed (%5.1f %%), %4d timed out, %4d survived, %3d equivalent,"
                            + " %3d without coverage, %2d other",
                    all, killed, killedShare(), timedOut, survived, equivalent, noCoverage, other);
        }
    }

    /** The score of a report: all mutants, per package, and the equivalent entries no survivor matched. */
    record Score(Counts total, Map<String, Counts> perPackage, List<EquivalentMutant> unmatched) {
    }

    private PitScore() {
    }

    /**
     * Scores the mutants against the equivalent list.
     *
     * @param mutants PIT's report
     * @param equivalents the survivors written down as equivalent
     * @return the counts
     */
    static Score score(List<Mutant> mutants, List<EquivalentMutant> equivalents) {
        Map<String, List<Mutant>> byPackage = new TreeMap<>();
        List<EquivalentMutant> unmatched = new ArrayList<>(equivalents);
        Set<Mutant> equivalent = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Mutant mutant : mutants) {
            byPackage.computeIfAbsent(mutant.packageName(), name -> new ArrayList<>()).add(mutant);
            if (mutant.status().equals("SURVIVED")) {
                EquivalentMutant listed = unmatched.stream().filter(mutant::matches).findFirst().orElse(null);
                if (listed != null) {
                    unmatched.remove(listed);
                    equivalent.add(mutant);
                }
            }
        }
        Map<String, Counts> perPackage = new TreeMap<>();
        byPackage.forEach((name, each) -> perPackage.put(name, count(each, equivalent)));
        return new Score(count(mutants, equivalent), perPackage, unmatched);
    }

    private static Counts count(List<Mutant> mutants, Set<Mutant> equivalent) {
        int killed = 0;
        int timedOut = 0;
        int survived = 0;
        int equivalents = 0;
        int noCoverage = 0;
        int other = 0;
        for (Mutant mutant : mutants) {
            switch (mutant.status()) {
                case "KILLED" -> killed++;
                case "TIMED_OUT" -> timedOut++;
                case "NO_COVERAGE" -> noCoverage++;
                case "SURVIVED" -> {
                    if (equivalent.contains(mutant)) {
                        equivalents++;
                    } else {
                        survived++;
                    }
                }
                default -> other++; // memory or run errors: detected, but not by an assertion
            }
        }
        return new Counts(mutants.size(), killed, timedOut, survived, equivalents, noCoverage, other);
    }

    /**
     * Reads PIT's XML report.
     *
     * @param report the {@code mutations.xml}
     * @return its mutants
     * @throws IOException when it cannot be read or parsed
     */
    static List<Mutant> read(Path report) throws IOException {
        Document document;
        try (InputStream in = Files.newInputStream(report)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            document = factory.newDocumentBuilder().parse(in);
        } catch (IOException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IOException("cannot parse " + report + ": " + ex.getMessage(), ex);
        }
        NodeList nodes = document.getElementsByTagName("mutation");
        List<Mutant> mutants = new ArrayList<>(nodes.getLength());
        for (int i = 0; i < nodes.getLength(); i++) {
            Element node = (Element) nodes.item(i);
            mutants.add(new Mutant(node.getAttribute("status"), text(node, "mutatedClass"),
                    text(node, "mutatedMethod"), Integer.parseInt(text(node, "lineNumber")),
                    text(node, "description")));
        }
        return mutants;
    }

    private static String text(Element node, String tag) {
        NodeList found = node.getElementsByTagName(tag);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().trim();
    }

    /**
     * Reads the equivalent list: one survivor per line, {@code class | method | line | description |
     * why}; blank lines and lines starting with {@code #} are skipped.
     *
     * @param list the file; absent means none
     * @return its entries
     * @throws IOException when it cannot be read or a line is malformed
     */
    static List<EquivalentMutant> readEquivalents(Path list) throws IOException {
        if (!Files.exists(list)) {
            return Collections.emptyList();
        }
        List<EquivalentMutant> entries = new ArrayList<>();
        int number = 0;
        for (String line : Files.readAllLines(list)) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\\s*\\|\\s*", 5);
            if (fields.length < 5 || fields[4].isBlank()) {
                throw new IOException(list + ":" + number
                        + ": expected 'class | method | line | description | why', got: " + line);
            }
            entries.add(new EquivalentMutant(fields[0].trim(), fields[1], Integer.parseInt(fields[2]), fields[3],
                    fields[4].trim()));
        }
        return entries;
    }

    /**
     * Prints the score and fails below the threshold.
     *
     * @param args the report, the equivalent list, the threshold on killed mutants in %
     * @throws IOException when a file cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: PitScore <mutations.xml> <equivalent list> <killed %>");
        }
        Score score = score(read(Path.of(args[0])), readEquivalents(Path.of(args[1])));
        double threshold = Double.parseDouble(args[2]);
        System.out.println("PIT: killed, timed out (not counted as killed), survived, equivalent (left out)");
        score.perPackage().forEach((name, counts) -> System.out.printf("  %-50s %s%n", name, counts.line()));
        System.out.printf("  %-50s %s%n", "the whole engine", score.total().line());
        for (EquivalentMutant stale : score.unmatched()) {
            System.out.println("  listed as equivalent, but no surviving mutant matches it (killed, or the line moved): "
                    + stale.mutatedClass() + " | " + stale.method() + " | " + stale.line() + " | "
                    + stale.description());
        }
        if (score.total().killedShare() < threshold) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "PIT: %.1f %% of the mutants killed, under the threshold of %.1f %%",
                    score.total().killedShare(), threshold));
        }
    }
}
