package io.gdastreams.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.cli.Main;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.PipelineUnderTest;
import io.gdastreams.it.StreamsInstances;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.CategoricalSettings;
import io.gdastreams.topology.TrainingTopology;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gda-streams sample} against a real broker: 20,000 events drawn from {@link HandModel} are produced to a
 * labelled-events topic at a paced rate, the training topology trains on them, and the model it publishes
 * reproduces the hand parameters within {@link SamplingTolerance} (5 standard errors at n_k = 4,000 to 10,000).
 * Then {@code sample --model-id} reads that trained model back from the model topic: its draws are the bytes a
 * sample of the same model from a file gives; a missing, deleted or invalid model is a one-line user error.
 */
@ExtendWith(KafkaBrokerExtension.class)
class SampleIT {

    private static final int EVENTS = 20_000;
    /** 6.7 s of sending: at least one progress line (every 5 s). */
    private static final int RATE = 3_000;
    /** The pacing never runs ahead of the rate by more than its 1 ms sleep threshold; 1 % covers rounding. */
    private static final double RATE_TOLERANCE = 0.01;

    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, Map.of(), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    private Path modelFile(String name, ModelParameters model) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, Json.mapper().writeValueAsBytes(model));
        return file;
    }

    @Test
    void shouldTrainOnItsEventsToTheModelItSampledAndReadTheTrainedModelBack(KafkaBroker broker) throws Exception {
        try (PipelineUnderTest pipeline = PipelineUnderTest.create(broker, 4);
             StreamsInstances instances = new StreamsInstances()) {
            String labelled = pipeline.topics().labelled().name();
            Outcome sent = run("sample", "--model", modelFile("hand.json", HandModel.model()).toString(),
                    "--count", Integer.toString(EVENTS), "--seed", "11", "--to-topic", labelled, "--rate",
                    Integer.toString(RATE), "--bootstrap-servers", broker.bootstrapServers());
            assertEquals(ExitCodes.OK, sent.code(), sent.err());
            Matcher summary = Pattern.compile("Sent ([\\d,]+) events to \\S+ in [\\d.]+ s \\(([\\d,.]+)/s\\)")
                    .matcher(sent.err());
            assertTrue(summary.find(), sent.err());
            assertEquals(EVENTS, Long.parseLong(summary.group(1).replace(",", "")));
            double achieved = Double.parseDouble(summary.group(2).replace(",", ""));
            assertTrue(achieved <= RATE * (1 + RATE_TOLERANCE), "paced at most " + RATE + "/s: " + sent.err());
            assertTrue(Pattern.compile("  [\\d,]+ of 20,000 events sent to " + Pattern.quote(labelled) + " \\(")
                    .matcher(sent.err()).find(), "a progress line: " + sent.err());

            instances.start(TrainingTopology.build(pipeline.trainingSettings(), GroupCommittedInput::open),
                    broker.streamsProperties(UniqueNames.of("training"), dir.resolve("training")));
            ModelParameters trained = pipeline.awaitModelAbsorbingAllLabelled();
            assertEquals(EVENTS, trained.totalCount());
            assertEquals(HandModel.FEATURES, trained.features());
            List<ConsumerRecord<byte[], DeadLetter>> deadLetters = broker.readAll(pipeline.topics().deadLetters(),
                    PipelineUnderTest.TIMEOUT);
            assertEquals(List.of(), deadLetters.stream().map(ConsumerRecord::value).toList(), "train accepts them");
            List<SamplingTolerance.Estimate> estimates = new ArrayList<>();
            for (String label : HandModel.LABELS) {
                ClassParameters c = trained.classes().stream().filter(p -> p.label().equals(label)).findFirst()
                        .orElseThrow(() -> new AssertionError("no class " + label + " in " + trained.classes()));
                estimates.add(new SamplingTolerance.Estimate(label, c.count(), c.mean(), c.covariance()));
            }
            SamplingTolerance.assertReproduces(new double[] {HandModel.prior(0), HandModel.prior(1),
                    HandModel.prior(2)}, HandModel.MEANS, HandModel.COVARIANCES, estimates, "trained on the sample");

            assertReadsTheNewestModelFromTheTopic(broker, pipeline);
        }
    }

    /**
     * Categorical sampling on the broker: 20,000 events of {@link HandModel#categoricalModel()} drawn with
     * {@code --set gda.categorical.alpha=0} and produced to the topic, a trainer with the same categorical features:
     * the category tables it publishes hold, per class, each value's count within 5 binomial standard errors of
     * θ_kjv·n_k from the hand counts (a value class a never had: none), the Bernoulli feature's values are the
     * strings "false" and "true", and the numeric part is reproduced as above.
     */
    @Test
    void shouldTrainTheCategoryTablesOfItsCategoricalEvents(KafkaBroker broker) throws Exception {
        try (PipelineUnderTest pipeline = PipelineUnderTest.create(broker, 2);
             StreamsInstances instances = new StreamsInstances()) {
            Outcome sent = run("sample", "--model", modelFile("categorical.json", HandModel.categoricalModel())
                            .toString(), "--count", Integer.toString(EVENTS), "--seed", "12", "--to-topic",
                    pipeline.topics().labelled().name(), "--rate", "20000", "--bootstrap-servers",
                    broker.bootstrapServers(), "--set", "gda.categorical.alpha=0");
            assertEquals(ExitCodes.OK, sent.code(), sent.err());
            assertTrue(sent.err().contains("4 features and 2 categorical (alpha 0.0)"), sent.err());

            instances.start(TrainingTopology.build(pipeline.trainingSettings().withCategorical(
                            CategoricalSettings.NONE.withFeatures(HandModel.CATEGORICAL)), GroupCommittedInput::open),
                    broker.streamsProperties(UniqueNames.of("training"), dir.resolve("training")));
            ModelParameters trained = pipeline.awaitModelAbsorbingAllLabelled();
            assertEquals(EVENTS, trained.totalCount());
            assertEquals(List.of(), broker.readAll(pipeline.topics().deadLetters(), PipelineUnderTest.TIMEOUT)
                    .stream().map(ConsumerRecord::value).toList(), "train accepts them");
            assertEquals(HandModel.CATEGORICAL, trained.categoricalFeatures());
            List<SamplingTolerance.Estimate> estimates = new ArrayList<>();
            long[][][] counts = new long[HandModel.LABELS.size()][HandModel.CATEGORICAL.size()][];
            long[] classCounts = new long[HandModel.LABELS.size()];
            for (int k = 0; k < HandModel.LABELS.size(); k++) {
                String label = HandModel.LABELS.get(k);
                int modelClass = trained.classes().stream().map(ClassParameters::label).toList().indexOf(label);
                assertTrue(modelClass >= 0, "class " + label + " in " + trained.classes());
                ClassParameters c = trained.classes().get(modelClass);
                estimates.add(new SamplingTolerance.Estimate(label, c.count(), c.mean(), c.covariance()));
                classCounts[k] = c.count();
                for (int j = 0; j < HandModel.CATEGORICAL.size(); j++) {
                    CategoricalTable table = trained.categorical().get(j);
                    assertEquals(HandModel.VALUES.get(j), table.values(), table.feature());
                    counts[k][j] = table.counts().get(modelClass);
                }
            }
            SamplingTolerance.assertReproduces(new double[] {HandModel.prior(0), HandModel.prior(1),
                    HandModel.prior(2)}, HandModel.MEANS, HandModel.COVARIANCES, estimates, "trained, categorical");
            SampleCategoricalRefitTest.assertCategoryFrequencies(counts, classCounts, 0.0, "trained on the sample");
            System.out.printf("categorical sample trained: class a %s, b %s, c %s%n",
                    Arrays.deepToString(counts[0]), Arrays.deepToString(counts[1]), Arrays.deepToString(counts[2]));
        }
    }

    private void assertReadsTheNewestModelFromTheTopic(KafkaBroker broker, PipelineUnderTest pipeline)
            throws IOException, ExecutionException, InterruptedException {
        String modelTopic = pipeline.topics().model().name();
        List<ConsumerRecord<String, ModelParameters>> records = broker.readAll(pipeline.topics().model(),
                PipelineUnderTest.TIMEOUT);
        ModelParameters newest = records.get(records.size() - 1).value();
        Path fromTopic = dir.resolve("from-topic.csv");
        Outcome read = run("sample", "--bootstrap-servers", broker.bootstrapServers(), "--model-id",
                pipeline.modelId(), "--set", "gda.topic.model=" + modelTopic, "--count", "1000", "--seed", "5",
                "--output", fromTopic.toString());
        assertEquals(ExitCodes.OK, read.code(), read.err());
        assertTrue(read.err().contains(String.format(Locale.ROOT, "model '%s' version %d", pipeline.modelId(),
                newest.version())), read.err());
        Path fromFile = dir.resolve("from-file.csv");
        Outcome file = run("sample", "--model", modelFile("trained.json", newest).toString(), "--count", "1000",
                "--seed", "5", "--output", fromFile.toString());
        assertEquals(ExitCodes.OK, file.code(), file.err());
        assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(fromTopic),
                "the model read from the topic is the newest one");

        try (KafkaProducer<String, byte[]> producer = broker.producer(pipeline.topics().modelRecords())) {
            producer.send(new ProducerRecord<>(modelTopic, "deleted",
                    Json.mapper().writeValueAsBytes(HandModel.model()))).get();
            producer.send(new ProducerRecord<>(modelTopic, "deleted", null)).get();
            producer.send(new ProducerRecord<>(modelTopic, "broken",
                    "{\"modelId\": \"broken\"}".getBytes(StandardCharsets.UTF_8))).get();
        }
        assertUserError(run("sample", "--bootstrap-servers", broker.bootstrapServers(), "--model-id", "absent",
                "--set", "gda.topic.model=" + modelTopic, "--count", "1"), "no model 'absent' on topic '" + modelTopic);
        assertUserError(run("sample", "--bootstrap-servers", broker.bootstrapServers(), "--model-id", "deleted",
                "--set", "gda.topic.model=" + modelTopic, "--count", "1"), "is a tombstone: the model was deleted");
        assertUserError(run("sample", "--bootstrap-servers", broker.bootstrapServers(), "--model-id", "broken",
                "--set", "gda.topic.model=" + modelTopic, "--count", "1"), "is not a valid model: $");
        assertUserError(run("sample", "--bootstrap-servers", broker.bootstrapServers(), "--model-id", "x",
                "--set", "gda.topic.model=" + UniqueNames.of("no-such-topic"), "--count", "1"), "no topic '");
        assertUserError(run("sample", "--model", modelFile("hand2.json", HandModel.model()).toString(), "--count",
                "1", "--to-topic", UniqueNames.of("no-such-topic"), "--bootstrap-servers", broker.bootstrapServers()),
                "create it first");
    }

    private static void assertUserError(Outcome outcome, String expectedFragment) {
        assertEquals(ExitCodes.USAGE, outcome.code(), outcome.err());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        assertTrue(outcome.err().startsWith("gda-streams sample: ") && outcome.err().contains(expectedFragment),
                outcome.err());
        assertFalse(outcome.err().contains("\tat "), outcome.err());
    }
}
