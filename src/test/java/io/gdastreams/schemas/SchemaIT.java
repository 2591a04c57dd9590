package io.gdastreams.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.cli.Main;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.serde.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schemas of docs/schemas/ against real outputs: {@code gda-streams replay} against a real broker (the live
 * training and scoring topologies) on Iris and on the Default data set (categorical "student", explanations, a
 * threshold decision; Iris with a cost decision), with blank cells, an unseen category, rare classes, and rows the
 * topologies must refuse. Every prediction line, the model file and every dead letter the run produced must pass
 * its schema; every event the topologies used must pass the event schemas, and every event they dead-lettered for a
 * reason the schema can see (not which features are categorical) must fail it. The runs must also have produced each optional prediction field,
 * so that the schema was tried on all of them (all but otherImputed and otherImputedCategories, which need more
 * than 256 continuous or 8 categorical features missing at once).
 */
@ExtendWith(KafkaBrokerExtension.class)
class SchemaIT {

    private static final Pattern RUN_SUFFIX = Pattern.compile("fresh topics labelled-events(-replay-[0-9a-f]+)");
    private static final Duration READ = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** A replay's outputs: prediction lines, the model file, and the topics of the run. */
    private record Run(List<String> predictions, JsonNode model, String suffix) {
    }

    private Run replay(KafkaBroker broker, String name, List<String> train, List<String> score, String label,
                       String... extra) throws IOException {
        Path trainFile = dir.resolve(name + "-train.csv");
        Path scoreFile = dir.resolve(name + "-score.csv");
        Path output = dir.resolve(name + "-predictions.jsonl");
        Path model = dir.resolve(name + "-model.json");
        Files.write(trainFile, train, StandardCharsets.UTF_8);
        Files.write(scoreFile, score, StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(List.of("replay", "--train", trainFile.toString(), "--score",
                scoreFile.toString(), "--label", label, "--id", "id", "--output", output.toString(),
                "--model-output", model.toString(), "--bootstrap-servers", broker.bootstrapServers()));
        args.addAll(List.of(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        Matcher suffix = RUN_SUFFIX.matcher(out.toString());
        assertTrue(suffix.find(), out.toString());
        return new Run(Files.readAllLines(output, StandardCharsets.UTF_8),
                Json.mapper().readTree(model.toFile()), suffix.group(1));
    }

    private static void assertValid(String schema, JsonNode instance, String what) {
        assertEquals(List.of(), JsonSchemas.problems(schema, instance), what + ": " + instance);
    }

    /** Validates everything a run wrote; returns the prediction fields seen and the dead letters' reasons. */
    private static Set<String> validate(KafkaBroker broker, Run run, Set<String> reasons) {
        Set<String> fields = new TreeSet<>();
        for (String line : run.predictions()) {
            JsonNode prediction = JsonSchemas.parse(line);
            assertValid(JsonSchemas.PREDICTION, prediction, "prediction");
            prediction.fieldNames().forEachRemaining(fields::add);
        }
        assertValid(JsonSchemas.MODEL, run.model(), "model file");
        for (ConsumerRecord<byte[], byte[]> record : broker.readAll("model-parameters" + run.suffix(), READ)) {
            assertValid(JsonSchemas.MODEL, Json.mapper().valueToTree(parse(record.value())), "model record");
        }
        Set<String> deadLettered = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> record : broker.readAll("dead-letters" + run.suffix(), READ)) {
            JsonNode letter = parse(record.value());
            assertValid(JsonSchemas.DEAD_LETTER, letter, "dead letter");
            reasons.add(letter.get("reason").asText());
            deadLettered.add(letter.get("topic").asText() + "/" + letter.get("partition").asInt() + "/"
                    + letter.get("offset").asLong());
            boolean schemaCanSee = !letter.get("reason").asText().contains("is not a number");
            String topic = letter.get("topic").asText();
            JsonNode event = parse(java.util.Base64.getDecoder().decode(letter.get("valueBase64").asText()));
            if (schemaCanSee) {
                String schema = topic.startsWith("labelled") ? JsonSchemas.LABELLED_EVENT : JsonSchemas.UNLABELLED_EVENT;
                assertFalse(JsonSchemas.problems(schema, event).isEmpty(),
                        schema + " must reject what the topology refused (" + letter.get("reason").asText() + "): "
                                + event);
            }
        }
        for (String topic : List.of("labelled-events", "unlabelled-events")) {
            String schema = topic.startsWith("labelled") ? JsonSchemas.LABELLED_EVENT : JsonSchemas.UNLABELLED_EVENT;
            int used = 0;
            for (ConsumerRecord<byte[], byte[]> record : broker.readAll(topic + run.suffix(), READ)) {
                if (!deadLettered.contains(record.topic() + "/" + record.partition() + "/" + record.offset())) {
                    assertValid(schema, parse(record.value()), topic + " event used by the topology");
                    used++;
                }
            }
            assertTrue(used > 0, topic);
        }
        return fields;
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            return Json.mapper().readTree(bytes);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }

    @Test
    void theOutputsOfRealReplaysMatchTheSchemas(KafkaBroker broker) throws IOException {
        Set<String> fields = new TreeSet<>();
        Set<String> reasons = new TreeSet<>();

        List<String> iris = Files.readAllLines(Path.of("src/main/resources/data/iris.csv"), StandardCharsets.UTF_8);
        List<String> irisTrain = new ArrayList<>(iris);
        irisTrain.add("5.0,3.0,4.0,1.0,rare1");                      // one observation each: excluded
        irisTrain.add("5.1,3.1,4.1,1.1,rare2");                      // (gda.min.count 2), one beyond top-k
        irisTrain.add("5.0,3.0,4.0,1.0,");                           // blank label: missing label
        irisTrain.add("5.0,3.0,4.0,1.0," + "L".repeat(300));         // label too long
        List<String> irisScore = new ArrayList<>(List.of("id," + iris.get(0)));
        for (int row = 1; row < iris.size(); row += 5) {
            String[] cells = iris.get(row).split(",");
            for (int j = 0; j < (row / 5) % 4; j++) {
                cells[(row + j) % 4] = "";                              // 0 to 3 of the 4 features blank
            }
            irisScore.add("r" + row + "," + String.join(",", cells));
        }
        irisScore.add("blank,,,,,setosa");                           // no feature at all: invalid event
        irisScore.add("wide,5.0,3.0,4.0,wide,versicolor");           // a string for a continuous feature
        Run irisRun = replay(broker, "iris", irisTrain, irisScore, "species", "--set", "gda.output.explain=true",
                "--set", "gda.outlier.p=0.05", "--set", "gda.output.top-k=1", "--set",
                "gda.decision.costs=virginica->versicolor:3");
        assertEquals(irisScore.size() - 1, irisRun.predictions().size());
        fields.addAll(validate(broker, irisRun, reasons));

        List<String> defaults = Files.readAllLines(Path.of("src/test/resources/fixtures/default/default.csv"),
                StandardCharsets.UTF_8);
        List<String> defaultScore = new ArrayList<>(List.of("id," + defaults.get(0)));
        for (int row = 1; row < defaults.size(); row += 97) {
            String[] cells = defaults.get(row).split(",", -1);
            switch (row % 4) {
                case 1 -> cells[1] = "";                                // student missing
                case 2 -> cells[1] = "Maybe";                           // student never seen
                case 3 -> cells[3] = "";                                // income missing
                default -> { }
            }
            defaultScore.add("d" + row + "," + String.join(",", cells));
        }
        Run defaultRun = replay(broker, "default", defaults, defaultScore, "default", "--set",
                "gda.categorical.features=student", "--set", "gda.output.explain=true", "--set",
                "gda.decision.threshold=Yes:0.2");
        assertEquals(defaultScore.size() - 1, defaultRun.predictions().size());
        assertTrue(defaultRun.model().has("categorical"), defaultRun.model().toString());
        fields.addAll(validate(broker, defaultRun, reasons));

        assertTrue(fields.containsAll(List.of("status", "id", "label", "probabilities", "otherProbability",
                "otherClasses", "logDensity", "modelId", "modelVersion", "outlier", "reason", "excluded", "imputed",
                "tailProbability", "explanation", "decision", "unseenValues", "imputedCategories", "expectedCost",
                "otherExcluded")),
                "fields seen: " + fields);
        assertTrue(reasons.stream().anyMatch(r -> r.contains("missing label")), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.contains("label too long")), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.contains("features is empty")), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.contains("is not a number")), reasons.toString());
        System.out.printf("SchemaIT: %d + %d predictions, 2 models, dead letters %s; prediction fields %s%n",
                irisRun.predictions().size(), defaultRun.predictions().size(), reasons, fields);
    }

    /**
     * The metrics topic of a real prequential replay with {@code gda.drift.action=reset} (two unit Gaussian classes
     * whose means swap half-way): every window and drift record on the topic matches model-metrics, the reset
     * model (resetGeneration, resetDropped) matches model, and both kinds of record and the reset were produced.
     */
    @Test
    void theMetricsRecordsOfARealPrequentialReplayWithAResetMatchTheirSchema(KafkaBroker broker) throws IOException {
        java.util.Random random = new java.util.Random(7);
        List<String> rows = new ArrayList<>(List.of("t,x,y"));
        int n = 6_000;
        for (int i = 0; i < n; i++) {
            boolean b = random.nextBoolean();
            double mean = (b ^ i >= n / 2) ? 2 : 0;
            rows.add(String.format(java.util.Locale.ROOT, "%d,%.6f,%s", i * 1000L, mean + random.nextGaussian(),
                    b ? "b" : "a"));
        }
        Path train = dir.resolve("drift-train.csv");
        Path metrics = dir.resolve("drift-metrics.jsonl");
        Path model = dir.resolve("drift-model.json");
        Files.write(train, rows, StandardCharsets.UTF_8);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--train", train.toString(), "--label", "y", "--time", "t",
                "--prequential", metrics.toString(), "--model-output", model.toString(), "--bootstrap-servers",
                broker.bootstrapServers(), "--set", "gda.publish.interval.ms=100", "--set",
                "gda.metrics.window.ms=60000", "--set", "gda.drift.action=reset"}, Map.of(),
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(ExitCodes.OK, code, out + "\n" + err);
        Matcher suffix = RUN_SUFFIX.matcher(out.toString());
        assertTrue(suffix.find(), out.toString());
        Set<String> kinds = new TreeSet<>();
        for (ConsumerRecord<byte[], byte[]> record : broker.readAll("model-metrics" + suffix.group(1), READ)) {
            JsonNode r = parse(record.value());
            assertValid(JsonSchemas.MODEL_METRICS, r, "metrics record");
            kinds.add(r.get("type").asText() + (r.has("action") ? ":" + r.get("action").asText() : ""));
        }
        assertTrue(kinds.containsAll(List.of("window", "drift:reset")), kinds.toString());
        JsonNode reset = Json.mapper().readTree(model.toFile());
        assertTrue(reset.has("resetGeneration") && reset.has("resetDropped"), reset.toString());
        assertValid(JsonSchemas.MODEL, reset, "reset model");
        for (ConsumerRecord<byte[], byte[]> record : broker.readAll("model-parameters" + suffix.group(1), READ)) {
            assertValid(JsonSchemas.MODEL, parse(record.value()), "model record");
        }
    }
}
