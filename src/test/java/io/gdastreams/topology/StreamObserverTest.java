package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the topologies tell their {@link StreamObserver}, against what they write: one call per answer and per dead
 * letter, with the category of each kind of bad input (hand-made records, one per category), the held events, the
 * applied events and the published model. And {@link LiveScoring}: its answer to an event is the predictions
 * topic's record for it, byte for byte.
 */
class StreamObserverTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    /** Records every call. */
    static final class Recording implements StreamObserver {
        int applied;
        final Map<DeadLetterCategory, Integer> deadLetters = new EnumMap<>(DeadLetterCategory.class);
        final Map<Prediction.Status, Integer> predictions = new EnumMap<>(Prediction.Status.class);
        final List<Long> inputTimestamps = new ArrayList<>();
        final Map<String, Long> pending = new ConcurrentHashMap<>();
        final List<ModelParameters> published = new ArrayList<>();
        final List<byte[]> seen = new ArrayList<>();

        @Override
        public void eventApplied() {
            applied++;
        }

        @Override
        public void deadLettered(DeadLetterCategory category) {
            deadLetters.merge(category, 1, Integer::sum);
        }

        @Override
        public void predicted(Prediction.Status status, long inputTimestampMs) {
            predictions.merge(status, 1, Integer::sum);
            inputTimestamps.add(inputTimestampMs);
        }

        @Override
        public void pendingEvents(String task, long count) {
            pending.put(task, count);
        }

        @Override
        public void modelPublished(ModelParameters model, Set<String> leftOut) {
            published.add(model);
        }

        @Override
        public void modelRecordSeen(byte[] record) {
            seen.add(record);
        }

        long pendingTotal() {
            return pending.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    @TempDir
    Path stateDir;

    private Properties props(String app) {
        Properties props = TrainingFixtures.driverProperties(app, stateDir);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return props;
    }

    @Test
    void shouldTellEveryAnswerDeadLetterAndHeldEventOfTheScorer() throws Exception {
        Recording observer = new Recording();
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
        LiveScoring scoring = new LiveScoring(settings, observer);
        Topics topics = settings.topics();
        try (TopologyTestDriver driver = new TopologyTestDriver(scoring.topology(), props("observer-scoring"),
                START)) {
            TestInputTopic<byte[], byte[]> events = DriverTopics.input(driver, topics.unlabelled());
            TestInputTopic<String, byte[]> models = DriverTopics.input(driver, topics.modelRecords());
            TestOutputTopic<byte[], byte[]> predictions = driver.createOutputTopic(topics.predictions().name(),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
            LabelledRow row = Iris.rows().get(77);
            byte[] held = event("h", row.features(Iris.FEATURES));
            events.pipeInput(bytes("h"), held, START.plusMillis(1));
            events.pipeInput(bytes("h2"), held, START.plusMillis(2));
            assertEquals(2, observer.pendingTotal());
            assertEquals(LiveScoring.Verdict.NO_MODEL, scoring.score(held).verdict());

            ModelParameters model = ScoringFixtures.irisModel(1);
            models.pipeInput(model.modelId(), topics.model().valueBytes(model));
            byte[] good = event("g", row.features(Iris.FEATURES));
            Map<String, Double> unknown = new LinkedHashMap<>(row.features(Iris.FEATURES));
            unknown.put("colour", 1.0);
            events.pipeInput(bytes("g"), good, START.plusMillis(3));
            events.pipeInput(bytes("bad"), bytes("{\"features\": "), START.plusMillis(4));
            events.pipeInput(bytes("u"), event("u", unknown), START.plusMillis(5));
            events.pipeInput(bytes("long"), event("x".repeat(ScoringProcessor.MAX_ID_BYTES + 1),
                    row.features(Iris.FEATURES)), START.plusMillis(6));

            List<byte[]> written = predictions.readValuesToList();
            assertEquals(6, written.size());
            assertEquals(0, observer.pendingTotal());
            assertEquals(Map.of(Prediction.Status.SCORED, 3, Prediction.Status.UNSCORED, 3), observer.predictions);
            assertEquals(Map.of(DeadLetterCategory.INVALID_EVENT, 1, DeadLetterCategory.SCHEMA_MISMATCH, 1,
                    DeadLetterCategory.OVERSIZED, 1), observer.deadLetters);
            // Held events keep their own timestamps: the latency runs from the input record's.
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), observer.inputTimestamps.stream()
                    .map(t -> t - START.toEpochMilli()).toList());

            // POST /score's path: the record the topology wrote for the same event, to the byte.
            LiveScoring.Answer answer = scoring.score(good);
            assertEquals(LiveScoring.Verdict.ANSWERED, answer.verdict());
            assertArrayEquals(written.get(2), answer.bytes());
            assertArrayEquals(topics.model().valueBytes(model),
                    topics.model().valueBytes(scoring.modelInForce().orElseThrow()));
            LiveScoring.Answer refused = scoring.score(event("u", unknown));
            assertEquals(LiveScoring.Verdict.REFUSED, refused.verdict());
            assertArrayEquals(written.get(4), refused.bytes());
            assertEquals(Map.of(Prediction.Status.SCORED, 3, Prediction.Status.UNSCORED, 3), observer.predictions,
                    "answers outside the topology are not counted");
        }
    }

    /**
     * A model in force without a scorable class scores nothing: the topology holds events (as before a first
     * model), {@code POST /score}'s path answers "no model" with the reason, and so does {@link
     * ScoringTopology#unscorable}; the first version that can score answers the held events and every request.
     */
    @Test
    void shouldHoldEventsAndAnswerNoModelWhileTheModelInForceHasNoScorableClass() {
        Recording observer = new Recording();
        ScoringSettings settings = ScoringSettings.defaults(ScoringFixtures.MODEL_ID);
        LiveScoring scoring = new LiveScoring(settings, observer);
        Topics topics = settings.topics();
        List<LabelledRow> rows = Iris.rows();
        ModelParameters tiny = ScoringFixtures.model(1, List.of(rows.get(0), rows.get(50), rows.get(100)),
                Iris.FEATURES);
        String why = "no scorable class in model version 1: setosa (count 1 below minimum 2); versicolor (count 1"
                + " below minimum 2); virginica (count 1 below minimum 2)";
        assertEquals(Optional.of(why), ScoringTopology.unscorable(settings, tiny));
        assertEquals(Optional.empty(), ScoringTopology.unscorable(settings, ScoringFixtures.irisModel(2)));
        try (TopologyTestDriver driver = new TopologyTestDriver(scoring.topology(), props("unscorable-scoring"),
                START)) {
            TestInputTopic<byte[], byte[]> events = DriverTopics.input(driver, topics.unlabelled());
            TestInputTopic<String, byte[]> models = DriverTopics.input(driver, topics.modelRecords());
            TestOutputTopic<byte[], byte[]> predictions = driver.createOutputTopic(topics.predictions().name(),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer());
            byte[] event = event("h", rows.get(77).features(Iris.FEATURES));
            assertEquals(Optional.of("no model in force: model 'iris' not published"), scoring.notScoring());

            models.pipeInput(tiny.modelId(), topics.model().valueBytes(tiny));
            events.pipeInput(bytes("h"), event, START.plusMillis(1));
            assertEquals(List.of(), predictions.readValuesToList(), "held: the model in force scores nothing");
            assertEquals(1, observer.pendingTotal());
            assertEquals(Optional.of(why), scoring.notScoring());
            assertEquals(1L, scoring.modelInForce().orElseThrow().version());
            LiveScoring.Answer noModel = scoring.score(event);
            assertEquals(LiveScoring.Verdict.NO_MODEL, noModel.verdict());
            assertEquals(why, noModel.reason());
            assertNull(noModel.prediction());

            ModelParameters model = ScoringFixtures.irisModel(2);
            models.pipeInput(model.modelId(), topics.model().valueBytes(model));
            driver.advanceWallClockTime(settings.pendingCheckInterval());
            List<byte[]> written = predictions.readValuesToList();
            assertEquals(1, written.size(), "the held event, answered by version 2");
            assertEquals(0, observer.pendingTotal());
            assertEquals(Optional.empty(), scoring.notScoring());
            LiveScoring.Answer answer = scoring.score(event);
            assertEquals(LiveScoring.Verdict.ANSWERED, answer.verdict());
            assertEquals(Prediction.Status.SCORED, answer.prediction().status());
            assertArrayEquals(written.get(0), answer.bytes());
        }
    }

    @Test
    void shouldTellAppliedEventsDeadLettersAndPublishedModelsOfTheTrainer() {
        Recording observer = new Recording();
        Topics topics = Topics.defaults();
        TrainingSettings settings = TrainingSettings.defaults(topics).withModelId("iris").withFeatures(Iris.FEATURES)
                .withMaxClasses(3).withPublishInterval(Duration.ofSeconds(1));
        try (TopologyTestDriver driver = new TopologyTestDriver(TrainingTopology.build(settings,
                TrainingFixtures.NO_CONSUMER_GROUP, observer), props("observer-training"), START)) {
            TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, topics.labelled());
            TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, topics.model());
            for (LabelledRow row : Iris.rows()) {
                labelled.pipeInput(bytes("r"), TrainingFixtures.labelledJson(Iris.FEATURES, row.x(), row.label()));
            }
            labelled.pipeInput(bytes("bad"), bytes("[1, 2"));
            labelled.pipeInput(bytes("three"), TrainingFixtures.labelledJson(Iris.FEATURES.subList(0, 3),
                    new double[] {5, 3, 1.5}, "setosa"));
            labelled.pipeInput(bytes("fourth"), TrainingFixtures.labelledJson(Iris.FEATURES,
                    new double[] {5, 3, 1.5, 0.2}, "a fourth class"));
            driver.advanceWallClockTime(Duration.ofSeconds(2));

            assertEquals(Iris.rows().size(), observer.applied);
            assertEquals(Map.of(DeadLetterCategory.INVALID_EVENT, 1, DeadLetterCategory.SCHEMA_MISMATCH, 1,
                    DeadLetterCategory.MODEL_BOUND, 1), observer.deadLetters);
            List<ModelParameters> written = models.readValuesToList();
            assertEquals(written.stream().map(m -> topics.model().valueBytes(m)).map(java.util.Arrays::toString)
                    .toList(), observer.published.stream().map(m -> topics.model().valueBytes(m))
                    .map(java.util.Arrays::toString).toList());
            assertFalse(written.isEmpty());
            assertEquals(Iris.rows().size(), observer.published.get(observer.published.size() - 1).totalCount());
            assertNull(observer.predictions.get(Prediction.Status.SCORED));
            // Every trainer's view of the model topic tells what any instance published (here: another one's).
            byte[] other = topics.model().valueBytes(Iris.model("iris", 99, Iris.rows()));
            DriverTopics.input(driver, topics.modelRecords()).pipeInput("iris", other);
            assertArrayEquals(other, observer.seen.get(observer.seen.size() - 1));
            int seen = observer.seen.size();
            DriverTopics.input(driver, topics.modelRecords()).pipeInput("another-model", other);
            assertEquals(seen, observer.seen.size(), "only records of its model id");
        }
    }

    private static byte[] event(String id, Map<String, Double> features) {
        return Json.toBytes(Map.of("id", id, "features", features));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
