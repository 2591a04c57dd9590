package io.gdastreams.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.TrainingFixtures;
import io.gdastreams.topology.TrainingTopology;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The whole path on a real broker, shared by the in-JVM broker test and the Testcontainers test: a training and
 * a scoring application run side by side; the 150 labelled Iris events go in over four partitions; the
 * published model must equal the numpy batch MLE; then the same 150 rows go in without their labels, and each
 * must come out exactly once, scored with the posteriors and log-density of the numpy golden file and stamped
 * with the version of the model that absorbed every labelled event.
 */
public final class IrisEndToEndScenario {

    /** The golden values are float64 numpy results; both sides carry round-off of a few ulps of the log terms. */
    public static final double POSTERIOR_TOLERANCE = 1e-10;
    public static final int PARTITIONS = 4;

    private IrisEndToEndScenario() {
    }

    /** Runs the scenario on {@code broker}, with the applications' state under {@code stateDir}; asserts as it goes. */
    public static void run(TestBroker broker, Path stateDir) {
        IrisGolden golden = IrisGolden.fullMle();
        try (PipelineUnderTest pipeline = PipelineUnderTest.create(broker, PARTITIONS);
             StreamsInstances instances = new StreamsInstances()) {
            instances.start(TrainingTopology.build(pipeline.trainingSettings(), GroupCommittedInput::open),
                    broker.streamsProperties(UniqueNames.of("training"), stateDir.resolve("training")));
            KafkaStreams scoring = instances.start(
                    ScoringTopology.build(pipeline.scoringSettings(golden.fitOptions())),
                    broker.streamsProperties(UniqueNames.of("scoring"), stateDir.resolve("scoring")));

            List<IrisGolden.Row> rows = golden.rows();
            for (IrisGolden.Row row : rows) {
                pipeline.send(pipeline.topics().labelled().name(), row.index() % PARTITIONS, key(row),
                        golden.labelledJson(row));
            }
            ModelParameters model = pipeline.awaitModelAbsorbingAllLabelled();
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), model);
            assertEquals(rows.size(), model.totalCount());

            pipeline.awaitModelInForce(scoring, model.version());
            for (IrisGolden.Row row : rows) {
                // Half the events carry an id, the other half rely on the record key standing in for it.
                String id = row.index() % 2 == 0 ? key(row) : null;
                pipeline.send(pipeline.topics().unlabelled().name(), row.index() % PARTITIONS, key(row),
                        golden.unlabelledJson(row, id));
            }
            broker.readUntil(pipeline.topics().predictions().name(), SerdeFactory.string().deserializer(), pipeline.topics().predictions().valueDeserializer(), records -> records.size() >= rows.size(),
                    PipelineUnderTest.TIMEOUT);
            List<ConsumerRecord<String, Prediction>> predictions = broker.readAll(pipeline.topics().predictions().name(),
                    SerdeFactory.string().deserializer(), pipeline.topics().predictions().valueDeserializer(),
                    PipelineUnderTest.TIMEOUT);

            assertEquals(rows.size(), predictions.size(), "exactly one prediction per unlabelled event");
            Map<String, Prediction> byKey = new HashMap<>();
            for (ConsumerRecord<String, Prediction> record : predictions) {
                assertEquals(null, byKey.put(record.key(), record.value()), "second prediction for " + record.key());
            }
            for (IrisGolden.Row row : rows) {
                assertGolden(row, byKey.get(key(row)), pipeline.modelId(), model.version());
            }
            List<ConsumerRecord<byte[], DeadLetter>> deadLetters = broker.readAll(pipeline.topics().deadLetters(), PipelineUnderTest.TIMEOUT);
            assertEquals(List.of(), deadLetters.stream().map(ConsumerRecord::value).toList(), "no dead letters");
        }
    }

    /** Asserts that {@code p} answers {@code row} with its golden posteriors, stamped with the model given. */
    public static void assertGolden(IrisGolden.Row row, Prediction p, String modelId, long modelVersion) {
        String where = "row " + row.index();
        assertTrue(p != null, where + " has a prediction");
        assertEquals(Prediction.Status.SCORED, p.status(), where + " " + p.reason());
        assertEquals(key(row), p.id(), where + " id");
        assertEquals(modelId, p.modelId(), where + " modelId");
        assertEquals(modelVersion, p.modelVersion(), where + " is stamped with the model that absorbed everything");
        assertEquals(row.probabilities().keySet(), p.probabilities().keySet(), where + " classes");
        for (Map.Entry<String, Double> expected : row.probabilities().entrySet()) {
            assertEquals(expected.getValue(), p.probabilities().get(expected.getKey()), POSTERIOR_TOLERANCE,
                    where + " p(" + expected.getKey() + " | x)");
        }
        assertEquals(row.logDensity(), p.logDensity(), POSTERIOR_TOLERANCE, where + " log p(x)");
        assertEquals(row.predictedLabel(), p.label(), where + " label");
    }

    /** The record key (and id) of {@code row}'s events. */
    public static String key(IrisGolden.Row row) {
        return "row-" + row.index();
    }
}
