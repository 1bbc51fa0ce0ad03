package io.github.resiliencestarter.mutation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The enforced score: killed apart from timed out, equivalents set aside, the threshold. */
class PitScoreTest {

    @TempDir
    Path dir;

    private Path report(String... statuses) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mutations>\n");
        for (int i = 0; i < statuses.length; i++) {
            String pkg = i % 2 == 0 ? "a.lease" : "a.claim";
            xml.append("<mutation detected='").append(!statuses[i].equals("SURVIVED")).append("' status='")
                    .append(statuses[i]).append("' numberOfTestsRun='1'><sourceFile>X.java</sourceFile>")
                    .append("<mutatedClass>").append(pkg).append(".X</mutatedClass><mutatedMethod>run")
                    .append("</mutatedMethod><methodDescription>()V</methodDescription><lineNumber>").append(10 + i)
                    .append("</lineNumber><mutator>M</mutator><indexes><index>1</index></indexes><blocks><block>1")
                    .append("</block></blocks><killingTest/><description>changed conditional boundary</description>")
                    .append("</mutation>\n");
        }
        Path file = dir.resolve("mutations.xml");
        Files.writeString(file, xml.append("</mutations>\n"));
        return file;
    }

    private Path equivalents(String... lines) throws IOException {
        return Files.write(dir.resolve("equivalent.txt"), java.util.List.of(lines));
    }

    @Test
    void countsTimedOutMutantsApartFromKilledOnes() throws IOException {
        PitScore.Score score = PitScore.score(
                PitScore.read(report("KILLED", "TIMED_OUT", "TIMED_OUT", "SURVIVED", "NO_COVERAGE", "KILLED")),
                PitScore.readEquivalents(dir.resolve("absent.txt")));
        assertThat(score.total()).isEqualTo(new PitScore.Counts(6, 2, 2, 1, 0, 1, 0));
        assertThat(score.total().killedShare()).isCloseTo(33.3, org.assertj.core.data.Offset.offset(0.1));
        assertThat(score.perPackage()).containsOnlyKeys("a.lease", "a.claim");
        assertThat(score.perPackage().get("a.lease")).isEqualTo(new PitScore.Counts(3, 1, 1, 0, 0, 1, 0));
    }

    @Test
    void aSurvivorListedAsEquivalentLeavesTheTotalAndAStaleEntryIsReported() throws IOException {
        PitScore.Score score = PitScore.score(PitScore.read(report("KILLED", "SURVIVED", "KILLED", "SURVIVED")),
                PitScore.readEquivalents(equivalents("# survivors no test can kill", "",
                        "a.claim.X | run | 11 | changed conditional boundary | the bound is never reached",
                        "a.claim.X | run | 99 | changed conditional boundary | a line that moved")));
        assertThat(score.total()).isEqualTo(new PitScore.Counts(4, 2, 0, 1, 1, 0, 0));
        assertThat(score.total().killedShare()).isCloseTo(66.7, org.assertj.core.data.Offset.offset(0.1));
        assertThat(score.unmatched()).singleElement().extracting(PitScore.EquivalentMutant::line).isEqualTo(99);
    }

    @Test
    void failsBelowTheThresholdOnKilledEvenWhenPitsOwnScoreWouldPass() throws IOException {
        Path report = report("KILLED", "TIMED_OUT", "TIMED_OUT", "KILLED");
        Path none = dir.resolve("absent.txt");
        // PIT counts all four as detected (100 %); killed are 50 %
        assertThatThrownBy(() -> PitScore.main(new String[] {report.toString(), none.toString(), "51"}))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("50.0 %");
        assertThatNoException().isThrownBy(() -> PitScore.main(new String[] {report.toString(), none.toString(), "50"}));
    }

    @Test
    void anEquivalentEntryWithoutItsReasonIsRefused() throws IOException {
        Path list = equivalents("a.claim.X | run | 11 | changed conditional boundary |  ");
        assertThatThrownBy(() -> PitScore.readEquivalents(list)).isInstanceOf(IOException.class)
                .hasMessageContaining(":1: expected");
    }
}
