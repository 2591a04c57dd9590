package io.gdastreams.topology;

import static io.gdastreams.topology.ScoringFixtures.MODEL_ID;
import static io.gdastreams.topology.ScoringFixtures.irisModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the scorer does with each record on the model topic: the model in force changes only for a valid model of a
 * higher version; everything else is refused, counted by kind, and the held model keeps scoring.
 */
class ModelIntakeTest {

    private static final long SEED = 20260606L;
    /** Version of the model in force when the poisoned record arrives. */
    private static final long HELD_VERSION = 3;
    /** Rows spread over the three classes, including ones near the versicolor/virginica boundary. */
    private static final int[] SAMPLE_ROWS = {0, 24, 50, 70, 77, 83, 106, 119, 133, 149};
    private static final Topic<String, ModelParameters> MODEL_TOPIC = Topics.defaults().model();

    @TempDir
    Path stateDir;

    /**
     * The model in force: fitted on every third row, so that a model of all 150 rows (what the poisoned records
     * carry when they carry a model) gives visibly different predictions.
     */
    private static ModelParameters held() {
        return ScoringFixtures.model(HELD_VERSION, Iris.every(3, 0), Iris.FEATURES);
    }

    private static String json(ModelParameters model) {
        return new String(MODEL_TOPIC.valueBytes(model), StandardCharsets.UTF_8);
    }

    /** {@code json} with its one occurrence of {@code from} replaced by {@code to}. */
    private static byte[] replaced(String json, String from, String to) {
        int at = json.indexOf(from);
        if (at < 0 || json.indexOf(from, at + 1) >= 0) {
            throw new IllegalArgumentException("'" + from + "' must occur once");
        }
        return json.replace(from, to).getBytes(StandardCharsets.UTF_8);
    }

    /** The counter a refused record must raise. */
    enum Counter {
        INVALID(CompiledModelCache::invalidRecords),
        CONFLICTING(CompiledModelCache::conflictingVersionsRejected),
        OLDER(CompiledModelCache::olderVersionsRejected);

        final ToLongFunction<CompiledModelCache> read;

        Counter(ToLongFunction<CompiledModelCache> read) {
            this.read = read;
        }
    }

    /** Records that must not replace the held model, each with the counter it raises. */
    enum Poison {
        /** A newer model (all rows), but its version is a string: Jackson would coerce "4" to 4. */
        VERSION_AS_STRING(Counter.INVALID) {
            @Override
            byte[] value() {
                return replaced(json(irisModel(4)), "\"version\":4", "\"version\":\"4\"");
            }
        },
        /** A newer model whose version is 4.5: Jackson would truncate it to 4. */
        FRACTIONAL_VERSION(Counter.INVALID) {
            @Override
            byte[] value() {
                return replaced(json(irisModel(4)), "\"version\":4", "\"version\":4.5");
            }
        },
        /** A newer model with an integer field written as a float. */
        INTEGER_AS_FLOAT(Counter.INVALID) {
            @Override
            byte[] value() {
                return replaced(json(irisModel(4)), "\"totalCount\":150", "\"totalCount\":150.0");
            }
        },
        /** A newer model with a field the model does not have. */
        UNKNOWN_FIELD(Counter.INVALID) {
            @Override
            byte[] value() {
                return replaced(json(irisModel(4)), "\"updatedAt\"", "\"weights\":[1,2],\"updatedAt\"");
            }
        },
        /** A delete marker under the model's key. */
        TOMBSTONE(Counter.INVALID) {
            @Override
            byte[] value() {
                return null;
            }
        },
        /** Random bytes. */
        GARBAGE_BYTES(Counter.INVALID) {
            @Override
            byte[] value() {
                byte[] noise = new byte[256];
                new Random(SEED).nextBytes(noise);
                return noise;
            }
        },
        /** The held version number with other statistics (all rows instead of every third). */
        SAME_VERSION_DIFFERENT_CONTENT(Counter.CONFLICTING) {
            @Override
            byte[] value() {
                return json(irisModel(HELD_VERSION)).getBytes(StandardCharsets.UTF_8);
            }
        },
        /** A valid model of a lower version (a regressed trainer). */
        LOWER_VERSION(Counter.OLDER) {
            @Override
            byte[] value() {
                return json(irisModel(HELD_VERSION - 1)).getBytes(StandardCharsets.UTF_8);
            }
        };

        final Counter counter;

        Poison(Counter counter) {
            this.counter = counter;
        }

        abstract byte[] value();
    }

    private ScoringHarness harness(ScoringSettings settings, String name) {
        return new ScoringHarness(settings, stateDir.resolve(name));
    }

    private static List<Prediction> scoreSample(ScoringHarness h, String prefix) {
        List<LabelledRow> data = Iris.rows();
        for (int i : SAMPLE_ROWS) {
            h.sendEvent(prefix + i, null, data.get(i).features(Iris.FEATURES));
        }
        return h.predictions().stream().map(kv -> kv.value).toList();
    }

    /** Same answer from the same compiled model: bit for bit, not within a tolerance. */
    private static void assertSameScores(List<Prediction> expected, List<Prediction> actual, long version) {
        assertEquals(expected.size(), actual.size());
        for (int j = 0; j < expected.size(); j++) {
            Prediction e = expected.get(j);
            Prediction a = actual.get(j);
            assertEquals(Status.SCORED, a.status(), a::reason);
            assertEquals(version, a.modelVersion());
            assertEquals(e.label(), a.label());
            assertEquals(e.probabilities(), a.probabilities());
            assertEquals(e.logDensity(), a.logDensity());
        }
    }

    @ParameterizedTest
    @EnumSource(Poison.class)
    void shouldKeepScoringWithTheHeldModelAndCountTheRefusedRecord(Poison poison) {
        try (ScoringHarness h = harness(ScoringSettings.defaults(MODEL_ID), poison.name())) {
            h.publish(held());
            List<Prediction> before = scoreSample(h, "before-");
            h.publishRaw(MODEL_ID, poison.value());
            List<Prediction> after = scoreSample(h, "after-");

            assertSameScores(before, after, HELD_VERSION);
            for (Counter counter : Counter.values()) {
                assertEquals(counter == poison.counter ? 1 : 0, counter.read.applyAsLong(h.cache),
                        counter + " after " + poison);
            }
            assertEquals(1, h.cache.rejectedRecords());
            assertEquals(1, h.cache.compilations(), "the refused record was never put in force");
            assertTrue(h.deadLetters().isEmpty(), "model records are not events: nothing to dead-letter");
        }
    }

    @Test
    void shouldShowThatEveryPoisonCarryingAModelWouldChangeThePredictions() {
        // Guards the test above: if a poisoned model were put in force, the predictions would differ.
        try (ScoringHarness h = harness(ScoringSettings.defaults(MODEL_ID), "guard")) {
            h.publish(held());
            List<Prediction> heldScores = scoreSample(h, "held-");
            h.publish(irisModel(HELD_VERSION + 1));
            List<Prediction> allRows = scoreSample(h, "all-");
            double largestChange = 0;
            for (int j = 0; j < SAMPLE_ROWS.length; j++) {
                largestChange = Math.max(largestChange,
                        Math.abs(heldScores.get(j).logDensity() - allRows.get(j).logDensity()));
            }
            assertTrue(largestChange > 1e-3, "the held model and the all-rows model differ: " + largestChange);
        }
    }

    @Test
    void shouldTreatTheSameVersionWithTheSameContentAsANoOpEvenWithAnotherPublicationTime() {
        ModelParameters model = held();
        ModelParameters republished = new ModelParameters(model.modelId(), model.version(), model.features(),
                model.totalCount(), model.classes(), model.sources(), "2031-12-31T23:59:59Z");
        // Other whitespace and field order, same numbers.
        String reordered = json(republished).replace("{\"modelId\":\"iris\",\"version\":3,",
                "{ \"version\" : 3 , \"modelId\" : \"iris\" , ");
        assertNotEquals(json(republished), reordered, "the record really is written differently");
        try (ScoringHarness h = harness(ScoringSettings.defaults(MODEL_ID), "same")) {
            h.publish(model);
            List<Prediction> before = scoreSample(h, "before-");
            h.publish(model);
            h.publishRaw(MODEL_ID, reordered.getBytes(StandardCharsets.UTF_8));
            assertSameScores(before, scoreSample(h, "after-"), HELD_VERSION);
            assertEquals(0, h.cache.rejectedRecords(), "a re-published model is not an error");
            assertEquals(1, h.cache.compilations(), "and it is not compiled again");
        }
    }

    @Test
    void shouldAcceptAHigherValidVersionAfterRefusingPoisonedRecords() {
        try (ScoringHarness h = harness(ScoringSettings.defaults(MODEL_ID), "recover")) {
            h.publish(held());
            for (Poison poison : Poison.values()) {
                h.publishRaw(MODEL_ID, poison.value());
            }
            ModelParameters next = irisModel(HELD_VERSION + 1);
            h.publish(next);
            List<Prediction> out = scoreSample(h, "next-");
            assertTrue(out.stream().allMatch(p -> p.status() == Status.SCORED && p.modelVersion() == HELD_VERSION + 1));
            assertEquals(Poison.values().length, h.cache.rejectedRecords());
            assertEquals(2, h.cache.compilations());
        }
    }

    @Test
    void shouldPutALowerVersionInForceWhenOlderVersionsAreAccepted() {
        ScoringSettings settings = ScoringSettings.defaults(MODEL_ID).withRejectOlderVersions(false);
        try (ScoringHarness h = harness(settings, "older-accepted")) {
            h.publish(held());
            scoreSample(h, "before-");
            h.publish(irisModel(HELD_VERSION - 1));
            List<Prediction> out = scoreSample(h, "after-");
            assertTrue(out.stream().allMatch(p -> p.modelVersion() == HELD_VERSION - 1), "the latest record wins");
            assertEquals(0, h.cache.olderVersionsRejected());
            assertEquals(2, h.cache.compilations());
        }
    }

    @Test
    void shouldStillRefuseTheSameVersionWithOtherContentWhenOlderVersionsAreAccepted() {
        ScoringSettings settings = ScoringSettings.defaults(MODEL_ID).withRejectOlderVersions(false);
        try (ScoringHarness h = harness(settings, "conflict")) {
            h.publish(held());
            List<Prediction> before = scoreSample(h, "before-");
            h.publishRaw(MODEL_ID, Poison.SAME_VERSION_DIFFERENT_CONTENT.value());
            assertSameScores(before, scoreSample(h, "after-"), HELD_VERSION);
            assertEquals(1, h.cache.conflictingVersionsRejected());
        }
    }

    @Test
    void shouldHoldEventsWhileOnlyInvalidRecordsExistAndScoreThemWithTheFirstValidModelOfAnyVersion() {
        ScoringSettings settings = ScoringSettings.defaults(MODEL_ID);
        try (ScoringHarness h = harness(settings, "stranded")) {
            // What a compacted topic can leave: no valid record under the key.
            h.publishRaw(MODEL_ID, Poison.GARBAGE_BYTES.value());
            h.publishRaw(MODEL_ID, Poison.TOMBSTONE.value());
            h.publishRaw(MODEL_ID, Poison.VERSION_AS_STRING.value());
            scoreSample(h, "held-");
            h.advanceWallClock(settings.pendingCheckInterval().multipliedBy(3));
            assertTrue(h.predictions().isEmpty(), "events are held while there is no valid model");
            assertTrue(h.cache.current().isEmpty());
            assertEquals(3, h.cache.invalidRecords());
            assertTrue(h.cache.absence().startsWith("no valid record of model 'iris': 3 invalid, the last at "
                    + MODEL_TOPIC + "-0 offset 2: "), h.cache.absence());

            // The trainer re-publishes: version 1 is lower than the "4" of the invalid record, and is accepted.
            h.publish(irisModel(1));
            h.advanceWallClock(settings.pendingCheckInterval());
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(SAMPLE_ROWS.length, out.size());
            for (int j = 0; j < SAMPLE_ROWS.length; j++) {
                assertEquals("held-" + SAMPLE_ROWS[j], out.get(j).key);
                assertEquals(Status.SCORED, out.get(j).value.status());
                assertEquals(1L, out.get(j).value.modelVersion());
            }
        }
    }

    /**
     * A model in force without a scorable class is reported to one caller once per stretch of such versions (a
     * trainer may publish several before a class reaches gda.min.count); a model that scores ends the stretch.
     */
    @Test
    void shouldClaimTheReportOfAModelThatScoresNothingOncePerStretch() {
        CompiledModelCache cache = CompiledModelCache.of(ScoringSettings.defaults(MODEL_ID));
        List<LabelledRow> rows = Iris.rows();
        List<LabelledRow> onePerClass = List.of(rows.get(0), rows.get(50), rows.get(100));
        assertEquals(Optional.empty(), cache.claimUnscorableReport(), "no model: the absence report says so");
        cache.offer(ScoringFixtures.model(1, onePerClass, Iris.FEATURES), "t-0 offset 0");
        cache.offer(ScoringFixtures.model(2, onePerClass, Iris.FEATURES), "t-0 offset 1");
        assertEquals(Optional.empty(), cache.scorable());
        assertEquals(2L, cache.claimUnscorableReport().orElseThrow().version());
        assertEquals(Optional.empty(), cache.claimUnscorableReport(), "once");
        cache.offer(ScoringFixtures.model(3, onePerClass, Iris.FEATURES), "t-0 offset 2");
        assertEquals(Optional.empty(), cache.claimUnscorableReport(), "not again within the stretch");
        cache.offer(irisModel(4), "t-0 offset 3");
        assertEquals(4L, cache.scorable().orElseThrow().version());
        assertEquals(Optional.empty(), cache.claimUnscorableReport(), "the model in force scores");
        cache.offer(ScoringFixtures.model(5, onePerClass, Iris.FEATURES), "t-0 offset 4");
        assertEquals(5L, cache.claimUnscorableReport().orElseThrow().version(), "a new stretch");
    }

    @Test
    void shouldKeepControlCharactersOfARecordOutOfTheReason() {
        CompiledModelCache cache = CompiledModelCache.of(ScoringSettings.defaults(MODEL_ID));
        cache.rejectInvalid("t-0 offset 5", "Unrecognized token 'a\nb\u001b[31m'");
        assertEquals("no valid record of model 'iris': 1 invalid, the last at t-0 offset 5: Unrecognized token "
                + "'a?b?[31m'", cache.absence());
    }

    @Test
    void shouldSayWhyThereIsNoModelWhenAnsweringBeyondThePendingBound() {
        try (ScoringHarness h = harness(ScoringSettings.defaults(MODEL_ID).withMaxPending(0), "why")) {
            h.sendEvent("before", null, Iris.rows().get(0).features(Iris.FEATURES));
            h.publishRaw(MODEL_ID, Poison.FRACTIONAL_VERSION.value());
            h.sendEvent("after", null, Iris.rows().get(0).features(Iris.FEATURES));
            List<KeyValue<String, Prediction>> out = h.predictions();
            assertEquals(2, out.size());
            assertEquals("no model yet (model 'iris' not published; 0 earlier events already held)",
                    out.get(0).value.reason());
            String reason = out.get(1).value.reason();
            assertTrue(reason.startsWith("no model yet (no valid record of model 'iris': 1 invalid, the last at "
                    + MODEL_TOPIC + "-0 offset 0: "), reason);
            assertTrue(reason.contains("4.5"), "the reason quotes the defect: " + reason);
            assertNull(out.get(1).value.modelVersion());
        }
    }
}
