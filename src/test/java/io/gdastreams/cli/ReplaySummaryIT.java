package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay} on a real broker summarises its unscored rows by reason (the scorer's own reasons, from the live
 * topology), and prints no progress bar when not on a terminal: the tests' stderr is not one. A trained model that
 * can score nothing is said at once.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ReplaySummaryIT {

    @TempDir
    Path dir;

    @Test
    void shouldSummariseUnscoredRowsByReasonAndDrawNoBarWithoutATerminal(KafkaBroker broker) throws IOException {
        List<String> iris = Files.readAllLines(Path.of("src/main/resources/data/iris.csv"), StandardCharsets.UTF_8);
        List<String> score = new ArrayList<>(List.of("id," + iris.get(0)));
        for (int row = 1; row < iris.size(); row += 10) {
            score.add("r" + row + "," + iris.get(row));                    // lines 2 to 16: scored
        }
        score.add("empty,,,,,setosa");                                     // line 17: features is empty
        score.add("wide1,5.0,3.0,4.0,wide,versicolor");                   // line 18: not a number
        score.add("L".repeat(1100) + ",5.0,3.0,4.0,1.2,versicolor");       // line 19: id too long
        score.add("wide2,5.0,narrow,4.0,1.0,versicolor");                  // line 20: not a number
        Path train = dir.resolve("train.csv");
        Path scoreFile = dir.resolve("score.csv");
        Files.write(train, iris, StandardCharsets.UTF_8);
        Files.write(scoreFile, score, StandardCharsets.UTF_8);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", train.toString(), "--score", scoreFile.toString(),
            "--label", "species", "--id", "id", "--bootstrap-servers", broker.bootstrapServers()}, Map.of(),
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        String report = out.toString();
        assertTrue(report.contains(": 15 predictions, 4 unscored"), report);
        assertTrue(report.contains(String.join(System.lineSeparator(),
                "Unscored rows by reason:",
                "  invalid event: 3 (first: line 17, invalid event: features is empty)",
                "  id too long: 1 (first: line 19, id too long: 1100 bytes of UTF-8 > 1024)")), report);
        assertFalse(err.toString().contains("\r") || out.toString().contains("\r"), "no bar without a terminal");
        assertFalse(err.toString().contains("[#") || err.toString().contains("[."), err.toString());
    }

    /**
     * Training rows that leave every class below gda.min.count make a model that scores nothing; a scorer holds
     * events until a model can score them, so the replay says why at once rather than wait for answers that never
     * come.
     */
    @Test
    void shouldSayWhyWhenTheTrainedModelCanScoreNothing(KafkaBroker broker) throws IOException {
        List<String> iris = Files.readAllLines(Path.of("src/main/resources/data/iris.csv"), StandardCharsets.UTF_8);
        Path train = dir.resolve("one-per-class.csv");
        Path scoreFile = dir.resolve("score.csv");
        Files.write(train, List.of(iris.get(0), iris.get(1), iris.get(51), iris.get(101)), StandardCharsets.UTF_8);
        Files.write(scoreFile, List.of(iris.get(0), iris.get(2), iris.get(52)), StandardCharsets.UTF_8);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", train.toString(), "--score", scoreFile.toString(),
            "--label", "species", "--bootstrap-servers", broker.bootstrapServers()}, Map.of(),
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.FAILURE, code, out + "\n" + err);
        assertTrue(err.toString().contains("replay: the trained model cannot score the 2 scoring rows: no scorable"
                + " class in model version "), err.toString());
        assertTrue(err.toString().contains(": setosa (count 1 below minimum 2); versicolor (count 1 below minimum 2);"
                + " virginica (count 1 below minimum 2) (gda.min.count is the fewest training rows a class needs to be"
                + " scored: train on more rows per class, or lower it with --set gda.min.count=N)"
                + System.lineSeparator()), err.toString());
    }
}
