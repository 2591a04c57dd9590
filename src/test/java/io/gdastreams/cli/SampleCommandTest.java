package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gda-streams sample} from a model file: the same seed gives the same bytes, CSV and JSON lines carry the
 * same draws, the JSON lines are events {@code train} accepts, a chosen seed is printed and repeats the run, the
 * configuration keys work as on other commands, and every bad option is one line and exit code 2. The sampling
 * itself is checked against the model in {@code sample.SampleRefitTest}.
 */
class SampleCommandTest {

    /** A two-class model of the shape replay --model-output writes; one label needs CSV quoting. */
    private static final String MODEL = """
            {"modelId": "hand", "version": 3, "features": ["a", "b"], "totalCount": 30,
             "classes": [
              {"label": "x", "count": 10, "prior": 0.3333333333333333, "mean": [0.0, 1.0],
               "covariance": [[1.0, 0.5], [0.5, 2.0]]},
              {"label": "y,z", "count": 20, "prior": 0.6666666666666666, "mean": [5.0, -1.0],
               "covariance": [[0.5, 0.0], [0.0, 0.25]]}],
             "sources": {"0": 30}, "updatedAt": "2026-11-25T10:00:00Z", "trainer": ""}
            """;

    @TempDir
    Path dir;

    private Path model;

    private record Outcome(int code, String out, String err) {
    }

    @BeforeEach
    void writeModel() throws IOException {
        model = dir.resolve("model.json");
        Files.writeString(model, MODEL, StandardCharsets.UTF_8);
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    /** A sample of the model file to {@code name}; returns the file's bytes. */
    private byte[] sample(String name, String... extra) throws IOException {
        Path output = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("sample", "--model", model.toString(), "--count", "500",
                "--output", output.toString()));
        args.addAll(List.of(extra));
        Outcome outcome = run(args.toArray(String[]::new));
        assertEquals(ExitCodes.OK, outcome.code(), outcome.err());
        return Files.readAllBytes(output);
    }

    private static void assertOneLineUserError(Outcome outcome, String expectedFragment) {
        assertEquals(ExitCodes.USAGE, outcome.code(), outcome.err());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        assertTrue(outcome.err().contains(expectedFragment), outcome.err());
        assertFalse(outcome.err().contains("\tat "), outcome.err());
    }

    /**
     * A command's options and --set are checked together: --covariance diag makes --set gda.statistics=diagonal
     * valid, whichever comes first on the line (each was checked on its own before, and this was refused).
     */
    @Test
    void optionsAndSetShouldBeCheckedTogether() throws IOException {
        byte[] plain = sample("plain.csv", "--seed", "5", "--covariance", "diag");
        assertArrayEquals(plain, sample("a.csv", "--set", "gda.statistics=diagonal", "--covariance", "diag",
                "--seed", "5"));
        assertArrayEquals(plain, sample("b.csv", "--covariance", "diag", "--set", "gda.statistics=diagonal",
                "--seed", "5"));
        assertArrayEquals(plain, sample("c.csv", "--set", "gda.statistics=diagonal", "--set", "gda.covariance=diag",
                "--seed", "5"));
        assertOneLineUserError(run("sample", "--model", model.toString(), "--count", "1", "--set",
                "gda.statistics=diagonal"), "needs gda.covariance = diag, not full (default)");
    }

    @Test
    void sameSeedShouldGiveIdenticalBytesAndAnotherSeedOtherBytes() throws IOException {
        for (String format : List.of("csv", "jsonl")) {
            byte[] first = sample("1." + format, "--seed", "42", "--format", format);
            byte[] second = sample("2." + format, "--seed", "42", "--format", format);
            assertArrayEquals(first, second, format);
            byte[] other = sample("3." + format, "--seed", "43", "--format", format);
            assertFalse(Arrays.equals(first, other), format + ": another seed, other draws");
        }
    }

    @Test
    void csvAndJsonLinesShouldCarryTheSameDrawsAsEventsTrainAccepts() throws IOException {
        String csvText = new String(sample("s.csv", "--seed", "7"), StandardCharsets.UTF_8);
        String jsonText = new String(sample("s.jsonl", "--seed", "7", "--format", "jsonl"), StandardCharsets.UTF_8);
        List<String> rows = csvText.lines().toList();
        List<String> events = jsonText.lines().toList();
        assertEquals("a,b,label", rows.get(0));
        assertEquals(500, events.size());
        assertEquals(501, rows.size());
        Pattern row = Pattern.compile("([^,]+),([^,]+),(x|\"y,z\")");
        for (int i = 0; i < 500; i++) {
            Decoded<LabelledEvent> decoded = EventDecoder.decodeLabelled(events.get(i).getBytes(StandardCharsets.UTF_8));
            assertTrue(decoded.isOk(), events.get(i) + ": " + decoded);
            LabelledEvent event = decoded.value();
            Matcher m = row.matcher(rows.get(i + 1));
            assertTrue(m.matches(), rows.get(i + 1));
            assertEquals(Double.parseDouble(m.group(1)), event.features().get("a"), 0.0, "row " + i);
            assertEquals(Double.parseDouble(m.group(2)), event.features().get("b"), 0.0, "row " + i);
            assertEquals(m.group(3).replace("\"", ""), event.label(), "row " + i);
        }
        assertTrue(csvText.endsWith("\n") && !csvText.contains("\r"), "\\n line ends");
    }

    /**
     * replay reads the class from the column its --label names in both files: --label-column lets a sample stand
     * beside a file whose class column is "species". Only the header differs; a column name taken by a feature, an
     * empty one, and JSON output (whose events carry "label") are refused.
     */
    @Test
    void labelColumnShouldNameTheClassColumnOfTheCsvOnly() throws IOException {
        List<String> plain = new String(sample("plain.csv", "--seed", "3"), StandardCharsets.UTF_8).lines().toList();
        List<String> named = new String(sample("named.csv", "--seed", "3", "--label-column", "species"),
                StandardCharsets.UTF_8).lines().toList();
        assertEquals("a,b,species", named.get(0));
        assertEquals(plain.subList(1, plain.size()), named.subList(1, named.size()));
        String m = model.toString();
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--label-column", "b"),
                "the model has a feature named 'b', the CSV column of the class: use --format jsonl or another"
                        + " --label-column");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--label-column", " "),
                "--label-column is empty");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--label-column", "y", "--format",
                "jsonl"), "--label-column names the CSV column of the class");
    }

    @Test
    void aChosenSeedShouldBePrintedAndRepeatTheSampleOnStdout() throws IOException {
        Outcome chosen = run("sample", "--model", model.toString(), "--count", "500");
        assertEquals(ExitCodes.OK, chosen.code(), chosen.err());
        Matcher m = Pattern.compile("--seed (-?\\d+) repeats this sample").matcher(chosen.err());
        assertTrue(m.find(), chosen.err());
        Outcome repeated = run("sample", "--model", model.toString(), "--count", "500", "--seed", m.group(1));
        assertEquals(chosen.out(), repeated.out());
        assertFalse(repeated.err().contains("repeats this sample"), repeated.err());
        assertTrue(chosen.err().startsWith("Sampling 500 events from "), chosen.err());
        Outcome one = run("sample", "--model", model.toString(), "--count", "1", "--seed", "3");
        assertTrue(one.err().startsWith("Sampling 1 event from "), one.err());
        assertEquals(new String(sample("f.csv", "--seed", m.group(1)), StandardCharsets.UTF_8),
                repeated.out(), "stdout and --output carry the same bytes");
    }

    /** ConfigOptions is mixed in: --set gda.covariance draws as --covariance does, and the option wins over it. */
    @Test
    void configurationKeysShouldChooseTheCovarianceBelowTheOption() throws IOException {
        byte[] tied = sample("tied.csv", "--seed", "5", "--covariance", "tied");
        assertArrayEquals(tied, sample("set.csv", "--seed", "5", "--set", "gda.covariance=tied"));
        assertArrayEquals(tied, sample("both.csv", "--seed", "5", "--set", "gda.covariance=diag", "--covariance",
                "tied"));
        assertFalse(Arrays.equals(tied, sample("full.csv", "--seed", "5")), "tied draws differ from full");
    }

    @Test
    void everyBadOptionShouldBeOneLineAndExitCodeTwo() throws IOException {
        String m = model.toString();
        assertOneLineUserError(run("sample", "--model", m, "--count", "0"), "--count must be between 1 and 100000000");
        assertOneLineUserError(run("sample", "--model", m, "--count", "100000001"), "--count must be between");
        assertOneLineUserError(run("sample", "--model", m), "Missing required option: '--count=N'");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--model-id", "x"),
                "--model and --model-id exclude each other");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--rate", "5"), "--rate paces --to-topic");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--to-topic", "t", "--output", "f"),
                "--to-topic sends labelled-event JSON");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--to-topic", "t", "--rate", "0"),
                "--rate must be between 0.01 and 1,000,000");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--format", "xml"),
                "--format xml: expected csv or jsonl");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--class", "w"),
                "--class w: model 'hand' version 3 has no such class (it has x, y,z)");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--covariance", "round"),
                "gda.covariance = 'round' (--covariance)");
        assertOneLineUserError(run("sample", "--model", dir.resolve("none.json").toString(), "--count", "1"),
                "none.json (no such file)");
        assertOneLineUserError(run("sample", "--model", dir.toString(), "--count", "1"),
                dir + " (a directory)");
        assertOneLineUserError(run("sample", "--count", "1"), "no model: give --model FILE, or --bootstrap-servers");
        assertOneLineUserError(run("sample", "--model", m, "--count", "1", "--to-topic", "t"),
                "bootstrap.servers is not set");

        Path quoted = dir.resolve("quoted.json");
        Files.writeString(quoted, MODEL.replace("\"version\": 3", "\"version\": \"3\""), StandardCharsets.UTF_8);
        assertOneLineUserError(run("sample", "--model", quoted.toString(), "--count", "1"),
                "quoted.json is not a valid model: $.version");
        Path asymmetric = dir.resolve("asymmetric.json");
        Files.writeString(asymmetric, MODEL.replace("[[1.0, 0.5], [0.5, 2.0]]", "[[1.0, 0.5], [0.4, 2.0]]"),
                StandardCharsets.UTF_8);
        assertOneLineUserError(run("sample", "--model", asymmetric.toString(), "--count", "1"),
                "model 'hand' version 3 cannot be sampled: class 'x': covariance is not symmetric");
        Path labelFeature = dir.resolve("label-feature.json");
        Files.writeString(labelFeature, MODEL.replace("[\"a\", \"b\"]", "[\"a\", \"label\"]"),
                StandardCharsets.UTF_8);
        Path output = dir.resolve("never.csv");
        assertOneLineUserError(run("sample", "--model", labelFeature.toString(), "--count", "1", "--output",
                output.toString()), "the model has a feature named 'label'");
        assertFalse(Files.exists(output), "refused before the file is created");
        Outcome jsonl = run("sample", "--model", labelFeature.toString(), "--count", "1", "--format", "jsonl");
        assertEquals(ExitCodes.OK, jsonl.code(), jsonl.err());
    }

    /** min-count 11 leaves class x (count 10) out: it is never drawn, and said so. */
    @Test
    void aClassTheFitLeavesOutShouldNeverBeDrawnAndBeNamed() throws IOException {
        Outcome outcome = run("sample", "--model", model.toString(), "--count", "300", "--seed", "3", "--set",
                "gda.min.count=11");
        assertEquals(ExitCodes.OK, outcome.code(), outcome.err());
        assertTrue(outcome.err().contains("never drawn, left out by the fit: 'x' (count 10 below minimum 11)"),
                outcome.err());
        List<String> rows = outcome.out().lines().toList();
        assertEquals(301, rows.size());
        assertTrue(rows.subList(1, rows.size()).stream().allMatch(r -> r.endsWith(",\"y,z\"")), outcome.out());
        assertOneLineUserError(run("sample", "--model", model.toString(), "--count", "1", "--class", "x", "--set",
                "gda.min.count=11"), "--class x: the class is left out of model 'hand' version 3");
        assertOneLineUserError(run("sample", "--model", model.toString(), "--count", "1", "--set",
                "gda.min.count=21"), "every class of model 'hand' version 3 is left out");
    }
}
