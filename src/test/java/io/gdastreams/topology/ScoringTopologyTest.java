package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScoringTopologyTest {

    /** Two routes to the same posterior (marginal vs. a model without the feature) agree to round-off. */
    private static final double SAME_POSTERIOR_TOLERANCE = 1e-10;
    /** Posteriors sum to one up to the round-off of a softmax over three classes. */
    private static final double SUM_TOLERANCE = 1e-12;

    /** Rows spread over the three classes, including ones near the versicolor/virginica boundary. */
    private static final int[] SAMPLE_ROWS = {0, 24, 50, 70, 77, 83, 106, 119, 133, 149};

    @TempDir
    Path stateDir;

    private static ScoringSettings settings() {
        return ScoringSettings.defaults(MODEL_ID);
    }

    private ScoringHarness harness(ScoringSettings settings, String name) {
        return new ScoringHarness(settings, stateDir.resolve(name));
    }

    private static Map<String, Double> without(Map<String, Double> features, String name) {
        Map<String, Double> copy = new LinkedHashMap<>(features);
        copy.remove(name);
        return copy;
    }

    private static void assertSamePosterior(Prediction expected, Prediction actual) {
        assertEquals(Status.SCORED, expected.status(), () -> "reference unscored: " + expected.reason());
        assertEquals(Status.SCORED, actual.status(), () -> "unscored: " + actual.reason());
        assertEquals(expected.probabilities().keySet(), actual.probabilities().keySet());
        for (String label : expected.probabilities().keySet()) {
            assertEquals(expected.probabilities().get(label), actual.probabilities().get(label),
                    SAME_POSTERIOR_TOLERANCE, label);
        }
        assertEquals(expected.logDensity(), actual.logDensity(), SAME_POSTERIOR_TOLERANCE);
        assertEquals(expected.label(), actual.label());
    }

    /** Scores {@code rows} (keys "r{index}") with a fresh scorer that only ever saw {@code model}. */
    private List<Prediction> scoreWithOnly(ModelParameters model, String name, int... rows) {
        List<LabelledRow> data = Iris.rows();
        try (ScoringHarness h = harness(settings(), name)) {
            h.publish(model);
            for (int i : rows) {
                h.sendEvent("r" + i, null, data.get(i).features(Iris.FEATURES));
            }
            return h.predictions().stream().map(kv -> kv.value).toList();
        }
    }

    @Test
    void shouldScoreWithPosteriorsThatSumToOneAndPickTheMostProbableClass() {
        try (ScoringHarness h = harness(settings(), "sum")) {
            h.publish(irisModel(1));
            List<LabelledRow> data = Iris.rows();
            for (int i = 0; i < data.size(); i++) {
                h.sendEvent("k" + i, "row-" + (i + 1), data.get(i).features(Iris.FEATURES));
            }
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(data.size(), out.size());
            for (int i = 0; i < out.size(); i++) {
                Prediction p = out.get(i).value;
                assertEquals("k" + i, out.get(i).key, "same key as the input");
                assertEquals(Status.SCORED, p.status());
                assertEquals("row-" + (i + 1), p.id());
                assertEquals(MODEL_ID, p.modelId());
                assertEquals(1L, p.modelVersion());
                assertEquals(List.of("setosa", "versicolor", "virginica"), List.copyOf(p.probabilities().keySet()));
                double sum = p.probabilities().values().stream().mapToDouble(Double::doubleValue).sum();
                assertEquals(1.0, sum, SUM_TOLERANCE);
                double best = p.probabilities().get(p.label());
                assertTrue(p.probabilities().values().stream().allMatch(q -> q <= best));
                assertTrue(Double.isFinite(p.logDensity()));
                assertNull(p.outlier(), "no threshold configured, no flag");
            }
            assertTrue(h.deadLetters().isEmpty());
        }
    }

    @Test
    void shouldStampTheModelVersionInForceAndChangeOnlySubsequentPredictions() {
        ModelParameters v1 = ScoringFixtures.model(1, Iris.every(3, 0), Iris.FEATURES);
        ModelParameters v2 = irisModel(2);
        List<LabelledRow> data = Iris.rows();
        List<Prediction> out = new ArrayList<>();
        try (ScoringHarness h = harness(settings(), "versions")) {
            h.publish(v1);
            for (int i : SAMPLE_ROWS) {
                h.sendEvent("r" + i, null, data.get(i).features(Iris.FEATURES));
            }
            out.addAll(h.predictions().stream().map(kv -> kv.value).toList());
            h.publish(v2);
            assertTrue(h.predictions().isEmpty(), "a new model re-emits nothing");
            for (int i : SAMPLE_ROWS) {
                h.sendEvent("r" + i, null, data.get(i).features(Iris.FEATURES));
            }
            out.addAll(h.predictions().stream().map(kv -> kv.value).toList());
        }
        int n = SAMPLE_ROWS.length;
        assertEquals(2 * n, out.size());
        List<Prediction> onlyV1 = scoreWithOnly(v1, "only-v1", SAMPLE_ROWS);
        List<Prediction> onlyV2 = scoreWithOnly(v2, "only-v2", SAMPLE_ROWS);
        double largestChange = 0;
        for (int j = 0; j < n; j++) {
            assertEquals(1L, out.get(j).modelVersion());
            assertEquals(2L, out.get(n + j).modelVersion());
            assertSamePosterior(onlyV1.get(j), out.get(j));
            assertSamePosterior(onlyV2.get(j), out.get(n + j));
            largestChange = Math.max(largestChange, Math.abs(out.get(j).logDensity() - out.get(n + j).logDensity()));
        }
        assertTrue(largestChange > 1e-3, "the two versions are different models: " + largestChange);
    }

    @Test
    void shouldHoldEventsThatArriveBeforeTheFirstModelAndScoreThemWhenItArrives() {
        ScoringSettings settings = settings();
        List<LabelledRow> data = Iris.rows();
        try (ScoringHarness h = harness(settings, "held")) {
            for (int i : SAMPLE_ROWS) {
                h.sendEvent("r" + i, null, data.get(i).features(Iris.FEATURES));
            }
            h.advanceWallClock(settings.pendingCheckInterval().multipliedBy(3));
            assertTrue(h.predictions().isEmpty(), "nothing to say before a model exists");
            h.publish(irisModel(7));
            h.advanceWallClock(settings.pendingCheckInterval());
            List<KeyValue<String, Prediction>> out = h.predictions();
            List<Prediction> reference = scoreWithOnly(irisModel(7), "held-reference", SAMPLE_ROWS);
            assertEquals(SAMPLE_ROWS.length, out.size());
            for (int j = 0; j < SAMPLE_ROWS.length; j++) {
                assertEquals("r" + SAMPLE_ROWS[j], out.get(j).key, "arrival order and original keys");
                assertEquals("r" + SAMPLE_ROWS[j], out.get(j).value.id());
                assertEquals(7L, out.get(j).value.modelVersion());
                assertSamePosterior(reference.get(j), out.get(j).value);
            }
            h.advanceWallClock(settings.pendingCheckInterval().multipliedBy(3));
            assertTrue(h.predictions().isEmpty(), "held events are answered exactly once");
        }
    }

    @Test
    void shouldReleaseHeldEventsBeforeTheNextEventWithoutWaitingForThePunctuator() {
        List<LabelledRow> data = Iris.rows();
        try (ScoringHarness h = harness(settings(), "release")) {
            h.sendEvent("a", null, data.get(0).features(Iris.FEATURES));
            h.sendEvent("b", null, data.get(60).features(Iris.FEATURES));
            h.publish(irisModel(1));
            h.sendEvent("c", null, data.get(120).features(Iris.FEATURES));
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(List.of("a", "b", "c"), out.stream().map(kv -> kv.key).toList());
            assertTrue(out.stream().allMatch(kv -> kv.value.status() == Status.SCORED));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void shouldAnswerNoModelYetBeyondThePendingBound(int maxPending) {
        ScoringSettings settings = settings().withMaxPending(maxPending);
        List<LabelledRow> data = Iris.rows();
        try (ScoringHarness h = harness(settings, "bound")) {
            for (int i = 0; i < maxPending + 3; i++) {
                h.sendEvent("e" + i, null, data.get(i).features(Iris.FEATURES));
            }
            List<KeyValue<String, Prediction>> early = h.predictions();
            assertEquals(List.of("e" + maxPending, "e" + (maxPending + 1), "e" + (maxPending + 2)),
                    early.stream().map(kv -> kv.key).toList(), "events beyond the bound are answered at once");
            for (KeyValue<String, Prediction> kv : early) {
                assertEquals(Status.UNSCORED, kv.value.status());
                assertTrue(kv.value.reason().startsWith("no model yet"), kv.value.reason());
                assertNull(kv.value.modelVersion());
            }
            h.publish(irisModel(1));
            h.advanceWallClock(settings.pendingCheckInterval());
            List<KeyValue<String, Prediction>> late = h.predictions();
            assertEquals(maxPending, late.size());
            for (int i = 0; i < maxPending; i++) {
                assertEquals("e" + i, late.get(i).key);
                assertEquals(Status.SCORED, late.get(i).value.status());
            }
            assertTrue(h.deadLetters().isEmpty(), "no model yet is not bad input");
        }
    }

    static Stream<Arguments> variants() {
        return Stream.of(CovarianceType.values()).flatMap(
                type -> Stream.of(Estimator.values()).map(estimator -> Arguments.of(type, estimator)));
    }

    @ParameterizedTest
    @MethodSource("variants")
    void shouldMarginaliseMissingFeature(CovarianceType type, Estimator estimator) {
        ScoringSettings settings = settings().withFitOptions(
                FitOptions.defaults().withCovarianceType(type).withEstimator(estimator));
        List<String> threeFeatures = Iris.FEATURES.subList(0, 3);
        String dropped = Iris.FEATURES.get(3);
        List<LabelledRow> data = Iris.rows();
        List<Prediction> absent;
        List<Prediction> nulled;
        List<Prediction> reference;
        try (ScoringHarness full = harness(settings, "four")) {
            full.publish(irisModel(1));
            for (int i : SAMPLE_ROWS) {
                full.sendEvent("r" + i, null, without(data.get(i).features(Iris.FEATURES), dropped));
            }
            absent = full.predictions().stream().map(kv -> kv.value).toList();
            for (int i : SAMPLE_ROWS) {
                Map<String, Double> features = new LinkedHashMap<>(data.get(i).features(Iris.FEATURES));
                features.put(dropped, null);
                full.sendEvent("r" + i, null, features);
            }
            nulled = full.predictions().stream().map(kv -> kv.value).toList();
        }
        try (ScoringHarness three = harness(settings, "three")) {
            three.publish(ScoringFixtures.model(1, data, threeFeatures));
            for (int i : SAMPLE_ROWS) {
                three.sendEvent("r" + i, null, without(data.get(i).features(Iris.FEATURES), dropped));
            }
            reference = three.predictions().stream().map(kv -> kv.value).toList();
        }
        assertEquals(SAMPLE_ROWS.length, reference.size());
        for (int j = 0; j < SAMPLE_ROWS.length; j++) {
            assertSamePosterior(reference.get(j), absent.get(j));
            assertSamePosterior(reference.get(j), nulled.get(j));
        }
    }

    @Test
    void shouldMapEventFeaturesToTheModelOrderByName() {
        List<String> reversed = new ArrayList<>(Iris.FEATURES);
        Collections.reverse(reversed);
        List<LabelledRow> data = Iris.rows();
        List<Prediction> reference = scoreWithOnly(irisModel(1), "natural-order", SAMPLE_ROWS);
        List<Prediction> out = scoreWithOnly(ScoringFixtures.model(1, data, reversed), "reversed-order", SAMPLE_ROWS);
        for (int j = 0; j < SAMPLE_ROWS.length; j++) {
            assertSamePosterior(reference.get(j), out.get(j));
        }
    }

    /**
     * A record key that is not text (here two serialised longs: −1, whose eight 0xFF bytes are no UTF-8 at all, and
     * 42, which is UTF-8 of seven NULs and '*') stands in for a missing id as its UTF-8 decoding, each malformed
     * sequence a U+FFFD (here each 0xFF); the prediction keeps the key's own bytes, so a consumer joins on the key, not on the id.
     */
    @Test
    void shouldKeepTheBytesOfAKeyThatIsNotTextAndDecodeItAsTheId() throws Exception {
        byte[] minusOne = java.nio.ByteBuffer.allocate(Long.BYTES).putLong(-1L).array();
        byte[] fortyTwo = java.nio.ByteBuffer.allocate(Long.BYTES).putLong(42L).array();
        Map<String, Object> event = Map.of("features", Iris.rows().get(0).features(Iris.FEATURES));
        byte[] value = io.gdastreams.serde.Json.mapper().writeValueAsBytes(event);
        try (ScoringHarness h = harness(settings(), "binary-keys")) {
            h.publish(irisModel(1));
            h.sendKeyBytes(minusOne, value);
            h.sendKeyBytes(fortyTwo, value);
            var out = h.predictionRecords();
            assertEquals(2, out.size());
            assertTrue(java.util.Arrays.equals(minusOne, out.get(0).key()), "the key's bytes, not its decoding");
            assertTrue(java.util.Arrays.equals(fortyTwo, out.get(1).key()));
            assertEquals("\uFFFD".repeat(8), out.get(0).value().id());
            assertEquals("\0".repeat(7) + "*", out.get(1).value().id());
            for (var record : out) {
                assertEquals(Status.SCORED, record.value().status());
                assertEquals("setosa", record.value().label());
            }
            assertTrue(h.deadLetters().isEmpty());
        }
    }

    @Test
    void shouldDeadLetterMalformedJsonAndStillScoreTheNextEvent() {
        byte[] bad = "{\"features\": {\"sepal_length\": 5.1,".getBytes(StandardCharsets.UTF_8);
        try (ScoringHarness h = harness(settings(), "malformed")) {
            h.publish(irisModel(3));
            h.send("bad-key", bad);
            h.sendEvent("good-key", "good", Iris.rows().get(0).features(Iris.FEATURES));
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(2, out.size());
            Prediction unscored = out.get(0).value;
            assertEquals("bad-key", out.get(0).key);
            assertEquals(Status.UNSCORED, unscored.status());
            assertEquals("bad-key", unscored.id(), "the record key stands in for the unreadable id");
            assertTrue(unscored.reason().contains("malformed JSON"), unscored.reason());
            assertEquals(3L, unscored.modelVersion());
            assertEquals(Status.SCORED, out.get(1).value.status());
            assertEquals("setosa", out.get(1).value.label());

            List<DeadLetter> dead = h.deadLetters();
            assertEquals(1, dead.size());
            DeadLetter letter = dead.get(0);
            assertEquals(unscored.reason(), letter.reason());
            assertEquals(settings().topics().unlabelled().name(), letter.topic());
            assertEquals(0, letter.partition());
            assertEquals(0L, letter.offset());
            assertEquals("bad-key", new String(Base64.getDecoder().decode(letter.keyBase64()), StandardCharsets.UTF_8));
            assertEquals(new String(bad, StandardCharsets.UTF_8),
                    new String(Base64.getDecoder().decode(letter.valueBase64()), StandardCharsets.UTF_8));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "null", "[1,2]", "{}", "{\"features\": {}}",
            "{\"features\": {\"petal_width\": \"x\"}}",
            "{\"features\": {\"petal_width\": 1, \"petal_width\": 2}}",
            "{\"id\": {}, \"features\": {\"petal_width\": 1}}",
            "{\"features\": {\"petal_width\": 1e400}}",
            "{\"features\": {\"petal_width\": null}}"})
    void shouldDeadLetterEveryInvalidEventEvenBeforeAModelExists(String value) {
        try (ScoringHarness h = harness(settings(), "invalid")) {
            h.send("k", value.getBytes(StandardCharsets.UTF_8));
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(1, out.size());
            assertEquals(Status.UNSCORED, out.get(0).value.status());
            assertTrue(out.get(0).value.reason().startsWith("invalid event: "), out.get(0).value.reason());
            assertEquals(1, h.deadLetters().size());
        }
    }

    @Test
    void shouldDeadLetterATombstoneEvent() {
        try (ScoringHarness h = harness(settings(), "tombstone")) {
            h.publish(irisModel(1));
            h.send("k", null);
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(1, out.size());
            assertEquals(Status.UNSCORED, out.get(0).value.status());
            DeadLetter letter = h.deadLetters().get(0);
            assertNull(letter.valueBase64());
        }
    }

    @Test
    void shouldLeaveEventsWithUnknownFeatureNamesUnscoredAndDeadLetterThem() {
        try (ScoringHarness h = harness(settings(), "unknown")) {
            h.publish(irisModel(1));
            Map<String, Double> features = new LinkedHashMap<>(Iris.rows().get(0).features(Iris.FEATURES));
            features.put("colour", 3.0);
            h.sendEvent("k", "x", features);
            Prediction p = h.predictions().get(0).value;
            assertEquals(Status.UNSCORED, p.status());
            assertEquals("unknown feature(s): colour", p.reason());
            assertEquals(1L, p.modelVersion());
            List<DeadLetter> dead = h.deadLetters();
            assertEquals(1, dead.size(), "input that does not fit the model's schema is bad input");
            assertEquals("unknown feature(s): colour", dead.get(0).reason());
        }
    }

    /**
     * The first models of a stream often have every class below gda.min.count: events wait for a version that can
     * score them, as they wait for a first model, within the same bound; beyond it they are answered at once, named
     * by the version in force and its excluded classes. A later version without a scorable class holds them again.
     */
    @Test
    void shouldHoldEventsWhileTheModelInForceHasNoScorableClass() {
        ScoringSettings settings = settings().withMaxPending(2);
        List<LabelledRow> data = Iris.rows();
        ModelParameters tiny = ScoringFixtures.model(1, List.of(data.get(0), data.get(50), data.get(100)),
                Iris.FEATURES);
        try (ScoringHarness h = harness(settings, "tiny")) {
            h.publish(tiny);
            for (int i : new int[] {1, 51, 101}) {
                h.sendEvent("r" + i, null, data.get(i).features(Iris.FEATURES));
            }
            h.advanceWallClock(settings.pendingCheckInterval().multipliedBy(3));
            List<KeyValue<String, Prediction>> early = h.predictions();
            assertEquals(List.of("r101"), early.stream().map(kv -> kv.key).toList(),
                    "two held, the third beyond the bound answered at once");
            Prediction notHeld = early.get(0).value;
            assertEquals(Status.UNSCORED, notHeld.status());
            assertEquals("no model yet (no scorable class in model version 1: setosa (count 1 below minimum 2);"
                    + " versicolor (count 1 below minimum 2); virginica (count 1 below minimum 2); 2 earlier events"
                    + " already held)", notHeld.reason());
            assertEquals(1L, notHeld.modelVersion());
            assertEquals(Map.of("setosa", "count 1 below minimum 2", "versicolor", "count 1 below minimum 2",
                    "virginica", "count 1 below minimum 2"), notHeld.excluded());

            h.publish(irisModel(2));
            h.advanceWallClock(settings.pendingCheckInterval());
            List<KeyValue<String, Prediction>> late = h.predictions();
            List<Prediction> reference = scoreWithOnly(irisModel(2), "tiny-reference", 1, 51);
            assertEquals(List.of("r1", "r51"), late.stream().map(kv -> kv.key).toList());
            for (int j = 0; j < late.size(); j++) {
                assertEquals(Status.SCORED, late.get(j).value.status());
                assertEquals(2L, late.get(j).value.modelVersion());
                assertSamePosterior(reference.get(j), late.get(j).value);
            }

            h.publish(ScoringFixtures.model(3, List.of(data.get(0), data.get(50), data.get(100)), Iris.FEATURES));
            h.sendEvent("r2", null, data.get(2).features(Iris.FEATURES));
            assertTrue(h.predictions().isEmpty(), "held again under version 3, which has no scorable class");
            h.publish(irisModel(4));
            h.advanceWallClock(settings.pendingCheckInterval());
            List<KeyValue<String, Prediction>> last = h.predictions();
            assertEquals(1, last.size());
            assertEquals(Status.SCORED, last.get(0).value.status());
            assertEquals(4L, last.get(0).value.modelVersion());
            assertTrue(h.deadLetters().isEmpty(), "a model that cannot score is not bad input");
        }
    }

    @Test
    void shouldUseTheEventIdElseTheRecordKey() {
        try (ScoringHarness h = harness(settings(), "ids")) {
            h.publish(irisModel(1));
            Map<String, Double> x = Iris.rows().get(0).features(Iris.FEATURES);
            h.sendEvent("key-1", "id-1", x);
            h.sendEvent("key-2", null, x);
            h.sendEvent(null, null, x);
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals("id-1", out.get(0).value.id());
            assertEquals("key-2", out.get(1).value.id());
            assertNull(out.get(2).key);
            assertNull(out.get(2).value.id());
            assertEquals(Status.SCORED, out.get(2).value.status());

            // An invalid event keeps its own id when it can be read, as a valid one does; else the key.
            h.send("key-4", "{\"id\":\"id-4\",\"features\":{}}".getBytes(StandardCharsets.UTF_8));
            h.send(null, "{\"id\":42,\"features\":{\"sepal_length\":\"abc\"}}".getBytes(StandardCharsets.UTF_8));
            h.send("key-6", "{\"id\":{\"no\":1},\"features\":{}}".getBytes(StandardCharsets.UTF_8));
            h.send("key-7", "{\"id\":\"id-7\",".getBytes(StandardCharsets.UTF_8));
            List<KeyValue<String, Prediction>> invalid = h.predictions();
            assertEquals(List.of("id-4", "42", "key-6", "key-7"), invalid.stream().map(p -> p.value.id()).toList());
            assertEquals(List.of("invalid event: features is empty", "invalid event: feature 'sepal_length' is not a"
                    + " number: \"abc\"", "invalid event: id must be a string or an integer", "invalid event: malformed JSON"),
                    invalid.stream().map(p -> p.value.reason().replaceAll("(malformed JSON).*", "$1")).toList());
        }
    }

    @Test
    void shouldFlagOutliersBelowTheLogDensityThreshold() {
        List<LabelledRow> data = Iris.rows();
        Map<String, Double> typical = data.get(0).features(Iris.FEATURES);
        Map<String, Double> far = new LinkedHashMap<>(typical);
        far.put("sepal_length", 50.0);
        try (ScoringHarness h = harness(settings(), "no-threshold")) {
            h.publish(irisModel(1));
            h.sendEvent("t", null, typical);
            h.sendEvent("f", null, far);
            List<KeyValue<String, Prediction>> out = h.predictions();
            double typicalDensity = out.get(0).value.logDensity();
            double farDensity = out.get(1).value.logDensity();
            assertTrue(farDensity < typicalDensity - 100, typicalDensity + " vs " + farDensity);
            double threshold = (typicalDensity + farDensity) / 2;
            try (ScoringHarness flagged = harness(settings().withOutlierThreshold(threshold), "threshold")) {
                flagged.publish(irisModel(1));
                flagged.sendEvent("t", null, typical);
                flagged.sendEvent("f", null, far);
                List<KeyValue<String, Prediction>> marked = flagged.predictions();
                assertEquals(Boolean.FALSE, marked.get(0).value.outlier());
                assertEquals(Boolean.TRUE, marked.get(1).value.outlier());
            }
        }
    }

    @Test
    void shouldCompileOncePerModelVersion() {
        List<LabelledRow> data = Iris.rows();
        try (ScoringHarness h = harness(settings(), "compile")) {
            assertEquals(0, h.cache.compilations());
            h.publish(irisModel(1));
            for (int i = 0; i < data.size(); i++) {
                h.sendEvent("k" + i, null, data.get(i).features(Iris.FEATURES));
            }
            assertEquals(1, h.cache.compilations(), "one compilation for 150 events");
            h.publish(irisModel(1));
            h.sendEvent("again", null, data.get(0).features(Iris.FEATURES));
            assertEquals(1, h.cache.compilations(), "a re-published version is not compiled again");
            h.publish(irisModel(2));
            for (int i = 0; i < 10; i++) {
                h.sendEvent("v2-" + i, null, data.get(i).features(Iris.FEATURES));
            }
            assertEquals(2, h.cache.compilations());
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(data.size() + 11, out.size());
            assertEquals(1L, out.get(data.size()).value.modelVersion());
            assertEquals(2L, out.get(out.size() - 1).value.modelVersion());
        }
    }

    @Test
    void shouldKeepThePreviousModelWhenModelRecordsAreBad() {
        ModelParameters good = irisModel(1);
        ClassParameters first = good.classes().get(0);
        ModelParameters wrongDimension = new ModelParameters(MODEL_ID, 2, good.features(), good.totalCount(),
                List.of(new ClassParameters(first.label(), first.count(), first.prior(), new double[] {1, 2, 3},
                        first.covariance()), good.classes().get(1)), good.sources(), good.updatedAt());
        ModelParameters noFeatures = new ModelParameters(MODEL_ID, 3, List.of(), good.totalCount(), good.classes(),
                good.sources(), good.updatedAt());
        ModelParameters wrongId = new ModelParameters("other", 4, good.features(), good.totalCount(),
                good.classes(), good.sources(), good.updatedAt());
        try (ScoringHarness h = harness(settings(), "bad-models")) {
            h.publish(good);
            h.publishRaw(MODEL_ID, "{\"modelId\": \"iris\", \"version\": 9, ".getBytes(StandardCharsets.UTF_8));
            h.publishRaw(MODEL_ID, "null".getBytes(StandardCharsets.UTF_8));
            h.publishRaw(MODEL_ID, "{}".getBytes(StandardCharsets.UTF_8));
            h.publishRaw(MODEL_ID, null);
            h.publishRaw(null, "{}".getBytes(StandardCharsets.UTF_8));
            h.publish(wrongDimension);
            h.publish(noFeatures);
            h.publishRaw(MODEL_ID, SerdeFactory.model().serializer().serialize("m", wrongId));
            ModelParameters threeFeatures = ScoringFixtures.model(5, Iris.rows(), Iris.FEATURES.subList(0, 3));
            ModelParameters otherModel = new ModelParameters("other", 5, threeFeatures.features(),
                    threeFeatures.totalCount(), threeFeatures.classes(), Map.of(), "2026-01-01T00:00:00Z");
            h.publishRaw("other", SerdeFactory.model().serializer().serialize("m", otherModel));
            h.sendEvent("k", null, Iris.rows().get(0).features(Iris.FEATURES));
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(1, out.size());
            assertEquals(Status.SCORED, out.get(0).value.status());
            assertEquals(1L, out.get(0).value.modelVersion());
            assertEquals(3, out.get(0).value.probabilities().size());
            assertEquals(1, h.cache.compilations(), "bad records never replace the compiled model");
            assertEquals(7, h.cache.invalidRecords(), "every bad record under the model's key is counted (the ones "
                    + "under no key or another model's key belong to no model of this scorer)");
        }
    }
}
