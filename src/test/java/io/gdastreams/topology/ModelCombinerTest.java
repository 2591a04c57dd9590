package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.PARTIALS;
import static io.gdastreams.topology.CombinerFixtures.context;
import static io.gdastreams.topology.CombinerFixtures.decodeModel;
import static io.gdastreams.topology.CombinerFixtures.encode;
import static io.gdastreams.topology.CombinerFixtures.keys;
import static io.gdastreams.topology.CombinerFixtures.lastPunctuator;
import static io.gdastreams.topology.CombinerFixtures.models;
import static io.gdastreams.topology.CombinerFixtures.snapshot;
import static io.gdastreams.topology.CombinerFixtures.store;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** ModelCombiner driven directly over a store left by an earlier run. */
class ModelCombinerTest {

    private static final double TOLERANCE = 1e-12;

    @Test
    void shouldDiscardStoredSnapshotsOfAnotherSchemaWhenTheConfiguredSchemaChanged() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        // An earlier run fixed the schema [a, b] from the data and kept partition 0's snapshot.
        store.put("schema", "[\"a\", \"b\"]".getBytes(StandardCharsets.UTF_8));
        byte[] stale = encode(snapshot(0, List.of("a", "b"), new double[][] {{1, 2}, {3, 4}}));
        store.put("partial:0", stale);
        // Now [a, b, c] is configured; partition 1 starts afresh with it.
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m")
                .withFeatures(List.of("a", "b", "c"));
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);

        context.setRecordMetadata(PARTIALS, 0, 7);
        combiner.process(new Record<>("m", encode(snapshot(1, List.of("a", "b", "c"),
                new double[][] {{1, 2, 3}, {3, 4, 8}, {5, 6, 7}})), 0L));

        List<ModelParameters> models = new ArrayList<>();
        List<DeadLetter> letters = new ArrayList<>();
        context.forwarded().forEach(f -> {
            if (f.record().value() instanceof TrainingOutput.Model m) {
                models.add(decodeModel(m.model()));
            } else if (f.record().value() instanceof TrainingOutput.Rejected r) {
                letters.add(r.deadLetter());
            }
        });
        assertEquals(1, letters.size(), letters.toString());
        assertTrue(letters.get(0).reason().contains("schema conflict"), letters.get(0).reason());
        assertEquals("training-test-model-combiner-changelog", letters.get(0).topic());
        assertEquals(-1, letters.get(0).offset());
        assertEquals(Base64.getEncoder().encodeToString("partial:0".getBytes(StandardCharsets.UTF_8)),
                letters.get(0).keyBase64());
        assertEquals(Base64.getEncoder().encodeToString(stale), letters.get(0).valueBase64(), "original bytes");
        assertEquals(1, models.size());
        ModelParameters model = models.get(0);
        assertEquals(List.of("a", "b", "c"), model.features());
        assertEquals(Map.of("1", 3L), model.sources());
        assertEquals(3, model.totalCount());
        ClassParameters x = model.classes().get(0);
        // mean of (1,2,3), (3,4,8), (5,6,7); MLE covariance by hand: deviations (-2,-2,-3), (0,0,2), (2,2,1).
        assertArrayEquals(new double[] {3, 4, 6}, x.mean(), TOLERANCE);
        assertArrayEquals(new double[] {8.0 / 3, 8.0 / 3, 8.0 / 3}, x.covariance()[0], TOLERANCE);
        assertArrayEquals(new double[] {8.0 / 3, 8.0 / 3, 14.0 / 3}, x.covariance()[2], TOLERANCE);
        assertEquals(null, store.get("partial:0"), "the stale snapshot is gone from the store");
    }

    @Test
    void shouldKeepASchemaWhoseFeatureNamesContainLineBreaksAcrossRestarts() {
        MockProcessorContext<String, TrainingOutput> context = context();
        List<String> features = List.of("a\nb", "c"); // any JSON key is a valid feature name
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m", encode(snapshot(0, features, new double[][] {{1, 2}})), 0L));

        ModelCombiner restarted = new ModelCombiner(settings); // a new task over the same store
        restarted.init(context);
        context.resetForwards();
        context.setRecordMetadata(PARTIALS, 0, 1);
        restarted.process(new Record<>("m", encode(snapshot(0, features, new double[][] {{1, 2}, {3, 6}})), 0L));

        List<TrainingOutput> out = new ArrayList<>();
        context.forwarded().forEach(f -> out.add(f.record().value()));
        assertEquals(1, out.size(), "a new version due at once supersedes re-sending the last one: " + out);
        ModelParameters model = decodeModel(((TrainingOutput.Model) out.get(0)).model());
        assertEquals(features, model.features());
        assertEquals(2, model.version());
        assertArrayEquals(new double[] {2, 4}, model.classes().get(0).mean(), TOLERANCE);
        assertArrayEquals(new double[] {1, 2}, model.classes().get(0).covariance()[0], TOLERANCE);
    }

    @Test
    void shouldPublishAnAcceptedButUnpublishedSnapshotAfterARestart() {
        MockProcessorContext<String, TrainingOutput> context = context();
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m"); // 1 s interval
        List<String> features = List.of("a", "b");
        ModelCombiner combiner = publishedFirst(context, settings);
        context.setCurrentSystemTimeMs(100);
        context.setRecordMetadata(PARTIALS, 0, 1);
        combiner.process(new Record<>("m", encode(snapshot(1, features, new double[][] {{5, 4}})), 100L));
        assertEquals(List.of(1L), models(context).stream().map(ModelParameters::version).toList(),
                "the second snapshot is accepted and waits for the interval");

        // The task dies here; its store (as restored from the changelog) holds the unpublished snapshot.
        context.resetForwards();
        new ModelCombiner(settings).init(context);
        context.setCurrentSystemTimeMs(200);
        lastPunctuator(context).punctuate(200);
        List<ModelParameters> models = models(context);
        assertEquals(1, models.size(), "published at the first punctuation, without waiting for an interval");
        ModelParameters model = models.get(0);
        assertEquals(2, model.version(), "the version continues from the store");
        assertEquals(Map.of("0", 2L, "1", 1L), model.sources());
        // (1,2), (3,6), (5,4): mean (3,4); deviations (-2,-2), (0,2), (2,0): S = [[8, 4], [4, 8]], MLE S/3.
        assertArrayEquals(new double[] {3, 4}, model.classes().get(0).mean(), TOLERANCE);
        assertArrayEquals(new double[] {8.0 / 3, 4.0 / 3}, model.classes().get(0).covariance()[0], TOLERANCE);

        byte[] lastPublished = ((TrainingOutput.Model) context.forwarded().get(0).record().value()).model();
        context.resetForwards();
        new ModelCombiner(settings).init(context); // a restart with nothing pending
        context.setCurrentSystemTimeMs(5000);
        lastPunctuator(context).punctuate(5000);
        assertEquals(1, context.forwarded().size(), "the model published again at start: " + context.forwarded());
        ModelParameters before = decodeModel(lastPublished);
        ModelParameters again = decodeModel(((TrainingOutput.Model) context.forwarded().get(0).record().value()).model());
        assertEquals(before.version() + 1, again.version(), "as a new version: a version never carries two contents");
        assertEquals(before.sources(), again.sources());
        assertEquals(before.totalCount(), again.totalCount());
        assertArrayEquals(before.classes().get(0).mean(), again.classes().get(0).mean(), 0.0);
    }

    /**
     * A newer snapshot of a partition that has applied fewer events than the kept one was written by no trainer task
     * (a task that lost its state stops at its start, "Guards against lost state"): refused and dead-lettered, so
     * the model does not go back, and the trainer goes on. Kept, it made the combiner stop rather than publish a
     * model whose count went back, and its store held it again at every start (a forged record stopped the trainer
     * for good).
     */
    @Test
    void shouldRefuseASnapshotWhoseCountWentBackAndGoOn() {
        MockProcessorContext<String, TrainingOutput> context = context();
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");
        List<String> features = List.of("a", "b");
        ModelCombiner combiner = publishedFirst(context, settings);
        assertEquals(List.of(2L), models(context).stream().map(ModelParameters::totalCount).toList());

        // Partition 0 later claims 3 records read, only 1 of them in its statistics: 2 events were lost.
        RunningGaussian one = new RunningGaussian(2);
        one.update(new double[] {1, 2});
        TreeMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("x", one);
        byte[] shrunk = encode(new PartialSnapshot("m", new PartitionProgress(0, 3, 1, 2, features), classes));
        context.setCurrentSystemTimeMs(5000);
        context.setRecordMetadata(PARTIALS, 0, 1);

        context.resetForwards();
        combiner.process(new Record<>("m", shrunk, 5000L));
        String refused = ((TrainingOutput.Rejected) context.forwarded().get(0).record().value()).deadLetter().reason();
        assertTrue(refused.startsWith("partial snapshot of partition 0 up to offset 3 has applied 1 events,"
                + " fewer than the 2 of the kept one"), refused);
        context.resetForwards();
        lastPunctuator(context).punctuate(10_000);
        assertTrue(models(context).stream().allMatch(m -> m.totalCount() == 2), "no model goes back: "
                + models(context));
    }

    @Test
    void shouldStopWhenAnotherModelsTrainerWritesSnapshotsUnderThisApplicationWhileItRuns() {
        MockProcessorContext<String, TrainingOutput> context = context();
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");
        List<String> features = List.of("a", "b");
        context.setCurrentSystemTimeMs(10_000_000L);
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);
        PartialSnapshot partial = snapshot(1, features, new double[][] {{1, 2}});
        byte[] otherModel = encode(new PartialSnapshot("m2", partial.progress(), partial.classes()));
        long margin = ModelCombiner.SHARED_APPLICATION_MARGIN.toMillis();

        // Written up to the margin after this combiner started: left over from before a change of gda.model.id,
        // or a clock behind; dead-lettered, as before.
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m2", otherModel, 10_000_000L - 3_600_000L));
        context.setRecordMetadata(PARTIALS, 0, 1);
        combiner.process(new Record<>("m2", otherModel, 10_000_000L + margin));
        List<String> reasons = new ArrayList<>();
        context.forwarded().forEach(f -> reasons.add(((TrainingOutput.Rejected) f.record().value()).deadLetter()
                .reason()));
        assertEquals(List.of("partial snapshot of partition 1 is for model 'm2', this combiner builds model 'm'",
                "partial snapshot of partition 1 is for model 'm2', this combiner builds model 'm'"), reasons);

        // Without a timestamp of its own (restamped with the time it was read, TimelessRecordInterceptor): not
        // evidence of a trainer running now; dead-lettered.
        context.setRecordMetadata(PARTIALS, 0, 2);
        RecordHeaders timeless = new RecordHeaders();
        timeless.add(TimelessRecordInterceptor.OWN_TIMESTAMP_HEADER, "-1".getBytes(StandardCharsets.US_ASCII));
        combiner.process(new Record<>("m2", otherModel, 10_000_000L + margin + 1_000, timeless));
        assertEquals(3, context.forwarded().size());

        // Written later: a trainer of model m2 runs under this application id now.
        context.setRecordMetadata(PARTIALS, 0, 3);
        TrainingStateException stopped = assertThrows(TrainingStateException.class,
                () -> combiner.process(new Record<>("m2", otherModel, 10_000_000L + margin + 1_000)));
        assertEquals("another trainer runs under application id 'training-test' with gda.model.id 'm2': its partial"
                + " snapshot was written 31 s after this trainer started (partial snapshot of partition 1 is for model"
                + " 'm2', this combiner builds model 'm'). Both would publish half a model; one application id trains"
                + " one model: give each model its own gda.application.id, and stop every instance before changing"
                + " gda.model.id", stopped.getMessage().substring(stopped.getMessage().indexOf("another")));
    }

    @Test
    void shouldWaitForAPartitionTheLastModelHadInsteadOfPublishingWithoutIt() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");
        List<String> features = List.of("a", "b");
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m", encode(snapshot(0, features, new double[][] {{1, 2}})), 0L));
        context.setCurrentSystemTimeMs(5000);
        context.setRecordMetadata(PARTIALS, 0, 1);
        combiner.process(new Record<>("m", encode(snapshot(1, features, new double[][] {{3, 4}})), 5000L));
        lastPunctuator(context).punctuate(5000);
        assertEquals(Map.of("0", 1L, "1", 1L), models(context).get(1).sources());

        store.delete("partial:1"); // partition 1's snapshot is gone (damaged and discarded, say)
        context.resetForwards();
        ModelCombiner restarted = new ModelCombiner(settings);
        restarted.init(context);
        context.setCurrentSystemTimeMs(10_000);
        context.setRecordMetadata(PARTIALS, 0, 2);
        restarted.process(new Record<>("m", encode(snapshot(0, features, new double[][] {{1, 2}, {5, 6}})), 10_000L));
        lastPunctuator(context).punctuate(10_000);
        assertTrue(models(context).isEmpty(), "no model without partition 1, which version 2 absorbed");

        context.setCurrentSystemTimeMs(15_000);
        context.setRecordMetadata(PARTIALS, 0, 3);
        restarted.process(new Record<>("m", encode(snapshot(1, features, new double[][] {{3, 4}, {7, 8}})), 15_000L));
        lastPunctuator(context).punctuate(15_000);
        List<ModelParameters> after = models(context);
        assertEquals(1, after.size());
        assertEquals(Map.of("0", 2L, "1", 2L), after.get(0).sources());
        assertEquals(3, after.get(0).version());
    }

    @Test
    void shouldCheckForADuePublishOnTheWallClockEveryTenMillisecondsOrTenTimesPerShortInterval() {
        for (long[] intervalAndCheck : new long[][] {{5_000, 10}, {250, 10}, {50, 5}}) {
            MockProcessorContext<String, TrainingOutput> context = context();
            new ModelCombiner(TrainingSettings.defaults(Topics.defaults()).withModelId("m")
                    .withPublishInterval(Duration.ofMillis(intervalAndCheck[0]))).init(context);
            MockProcessorContext.CapturedPunctuator punctuator = context.scheduledPunctuators().get(0);
            assertEquals(PunctuationType.WALL_CLOCK_TIME, punctuator.getType());
            assertEquals(Duration.ofMillis(intervalAndCheck[1]), punctuator.getInterval());
        }
    }

    @Test
    void shouldLoadAStoreInTheLayoutEarlierVersionsWroteAndWriteTheSameLayout() throws Exception {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        // The entries as a combiner of an earlier version left them in its changelog, byte for byte: version 7
        // published partition 0 up to offset 2, with 2 events of class x.
        store.put("schema", "[\"a\",\"b\"]".getBytes(StandardCharsets.UTF_8));
        store.put("partial:0", encode(snapshot(0, List.of("a", "b"), new double[][] {{1, 2}, {3, 6}})));
        store.put("version", new byte[] {0, 0, 0, 0, 0, 0, 0, 7});
        store.put("published", "{\"0\":2}".getBytes(StandardCharsets.UTF_8));
        store.put("model", ("{\"version\":7,\"trainer\":\"training-test\",\"totalCount\":2,\"sources\":{\"0\":2},"
                + "\"labels\":[\"x\"],\"sha256\":\"" + Base64.getEncoder().encodeToString(new byte[32]) + "\"}")
                .getBytes(StandardCharsets.UTF_8));
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");

        new ModelCombiner(settings).init(context);
        lastPunctuator(context).punctuate(0);

        List<ModelParameters> models = models(context);
        assertEquals(1, models.size(), "published again at start, nothing else pending: " + context.forwarded());
        ModelParameters model = models.get(0);
        assertEquals(8, model.version(), "above the stored version");
        assertEquals(List.of("a", "b"), model.features(), "the stored schema");
        assertEquals(Map.of("0", 2L), model.sources());
        assertArrayEquals(new double[] {2, 4}, model.classes().get(0).mean(), TOLERANCE);
        byte[] bytes = ((TrainingOutput.Model) context.forwarded().get(0).record().value()).model();
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 8}, store.get("version"), "8-byte big-endian version");
        assertEquals("{\"0\":2}", new String(store.get("published"), StandardCharsets.UTF_8));
        var summary = Json.mapper().readTree(store.get("model"));
        assertEquals(8, summary.get("version").asLong());
        assertEquals("training-test", summary.get("trainer").asText());
        assertEquals(2, summary.get("totalCount").asLong());
        assertEquals(2, summary.get("sources").get("0").asLong());
        assertEquals("[\"x\"]", summary.get("labels").toString());
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(bytes), summary.get("sha256").binaryValue(),
                "the digest of the exact record published");
        assertEquals(Set.of("schema", "partial:0", "version", "published", "model"), keys(store));
    }

    @Test
    void shouldDeadLetterAndDeleteUnreadableStoreEntriesAndLoadTheRest() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> store = context.getStateStore(TrainingTopology.COMBINER_STORE);
        byte[] good = encode(snapshot(0, List.of("a", "b"), new double[][] {{1, 2}, {3, 6}}));
        store.put("partial:0", good);
        store.put("partial:1", "not a snapshot".getBytes(StandardCharsets.UTF_8));
        store.put("version", new byte[] {1, 2, 3});
        store.put("whatever", new byte[] {9});
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");

        new ModelCombiner(settings).init(context);
        lastPunctuator(context).punctuate(0);

        List<DeadLetter> letters = new ArrayList<>();
        context.forwarded().forEach(f -> {
            if (f.record().value() instanceof TrainingOutput.Rejected r) {
                letters.add(r.deadLetter());
            }
        });
        assertEquals(Set.of("partial:1", "version", "whatever"), Set.copyOf(letters.stream().map(l -> new String(
                Base64.getDecoder().decode(l.keyBase64()), StandardCharsets.UTF_8)).toList()));
        for (DeadLetter letter : letters) {
            assertTrue(letter.reason().startsWith("state store model-combiner: unreadable entry '"), letter.reason());
            assertTrue(letter.reason().endsWith("; discarded"), letter.reason());
            assertEquals("training-test-model-combiner-changelog", letter.topic());
        }
        assertEquals(Set.of("partial:0", "version", "published", "model"), keys(store),
                "the unreadable entries are gone; a model was published from the readable snapshot");
        ModelParameters model = models(context).get(0);
        assertEquals(1, model.version());
        assertEquals(Map.of("0", 2L), model.sources());
    }

    @Test
    void shouldLeaveOutTheNewestUnpublishedClassesBeyondWhatTheRecordLimitSurelyHolds() {
        PartialSnapshot two = snapshot(0, List.of("a", "b"), Map.of("k1", new double[][] {{1, 2}, {3, 6}},
                "k2", new double[][] {{5, 1}, {2, 2}}));
        PartialSnapshot three = snapshot(0, List.of("a", "b"), Map.of("k1", new double[][] {{1, 2}, {3, 6}},
                "k2", new double[][] {{5, 1}, {2, 2}}, "k3", new double[][] {{0, 0}, {1, 1}, {2, 1}}));
        int twoClassBytes = publishedBytes(TrainingSettings.defaults(Topics.defaults()).withModelId("m"), two).length;
        int threeClassBytes = publishedBytes(TrainingSettings.defaults(Topics.defaults()).withModelId("m"), three).length;
        assertTrue(threeClassBytes > twoClassBytes + 100, threeClassBytes + " vs " + twoClassBytes);

        // Room for two classes at d = 2 by ModelSizeBound (their numbers at their longest), far more than the bytes.
        TrainingSettings limited = TrainingSettings.defaults(Topics.defaults()).withModelId("m")
                .withMaxModelBytes(ModelSizeBound.HEADER_BYTES + ModelSizeBound.classBytes(2) * 5 / 2 + 2 * (6 + 3));
        assertEquals(2, ModelSizeBound.maxClasses(List.of("a", "b"), limited));
        assertTrue(threeClassBytes < limited.maxModelBytes() / 100);
        ModelParameters model = decodeModel(publishedBytes(limited, three));
        assertEquals(List.of("k1", "k2"), model.classes().stream().map(ClassParameters::label).toList());
        assertEquals(4, model.totalCount(), "k3's events count in no class");
        assertEquals(0.5, model.classes().get(0).prior(), TOLERANCE);
    }

    @Test
    void shouldPublishNothingWhenTheClassesItAlreadyPublishedExceedTheRecordLimit() {
        MockProcessorContext<String, TrainingOutput> context = context();
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m");
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m", encode(snapshot(0, List.of("a", "b"), Map.of(
                "k1", new double[][] {{1, 2}, {3, 6}}, "k2", new double[][] {{5, 1}, {2, 2}}))), 0L));
        assertEquals(1, models(context).size());

        context.resetForwards();
        ModelCombiner restarted = new ModelCombiner(settings.withMaxModelBytes(100)); // the limit went down
        restarted.init(context);
        context.setCurrentSystemTimeMs(5000);
        context.setRecordMetadata(PARTIALS, 0, 1);
        restarted.process(new Record<>("m", encode(snapshot(0, List.of("a", "b"), Map.of(
                "k1", new double[][] {{1, 2}, {3, 6}, {0, 0}}, "k2", new double[][] {{5, 1}, {2, 2}},
                "k3", new double[][] {{0, 0}}))), 5000L));
        context.setCurrentSystemTimeMs(10_000);
        lastPunctuator(context).punctuate(10_000);
        assertTrue(context.forwarded().isEmpty(), "not published, not dead-lettered: " + context.forwarded());
    }

    /**
     * Another application's model above this trainer's while it runs: two trainers publish one model id. The trainer
     * stops at its next look at the topic (a conflict of configuration: no rebuild), having published nothing more.
     */
    @Test
    void shouldStopWhenAnotherApplicationPublishesTheModelWhileItRuns() {
        MockProcessorContext<String, TrainingOutput> context = context();
        KeyValueStore<String, byte[]> onTopic = context.getStateStore(TrainingTopology.PUBLISHED_STORE);
        TrainingSettings settings = TrainingSettings.defaults(Topics.defaults()).withModelId("m"); // 1 s interval
        List<String> features = List.of("a", "b");
        publishedFirst(context, settings);
        assertEquals(List.of(1L), models(context).stream().map(ModelParameters::version).toList());

        onTopic.put("m", SerdeFactory.model().serializer().serialize(null, new ModelParameters("m", 5, features, 9,
                List.of(), Map.of("0", 9L), "2026-01-01T00:00:00Z", "another-application")));
        context.resetForwards();
        TrainingStateException stopped = assertThrows(TrainingStateException.class, () -> {
            for (long now = 1000; now <= 3000; now += 100) {
                context.setCurrentSystemTimeMs(now);
                lastPunctuator(context).punctuate(now);
            }
        });
        assertTrue(stopped.getMessage().startsWith("application 'another-application' also publishes model 'm'"
                + " (version 5, above or beside this trainer's version 1) while this one runs"), stopped.getMessage());
        assertFalse(stopped.rebuildMayHelp());
        assertTrue(context.forwarded().isEmpty(), "nothing published over it: " + context.forwarded());
    }

    /** A combiner started over {@code context} that received (1,2), (3,6) of class x from partition 0 at time 0. */
    private static ModelCombiner publishedFirst(MockProcessorContext<String, TrainingOutput> context,
                                                TrainingSettings settings) {
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m", encode(snapshot(0, List.of("a", "b"), new double[][] {{1, 2}, {3, 6}})),
                0L));
        return combiner;
    }

    /** The single model record a fresh combiner publishes for {@code snapshot}. */
    private static byte[] publishedBytes(TrainingSettings settings, PartialSnapshot snapshot) {
        MockProcessorContext<String, TrainingOutput> context = context();
        ModelCombiner combiner = new ModelCombiner(settings);
        combiner.init(context);
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m", encode(snapshot), 0L));
        assertEquals(1, context.forwarded().size(), context.forwarded().toString());
        return ((TrainingOutput.Model) context.forwarded().get(0).record().value()).model();
    }

    @Test
    void shouldDeadLetterARefusedSnapshotWithItsHeadersOnlyWhenTheyAreWithinTheBound() {
        MockProcessorContext<String, TrainingOutput> context = context();
        ModelCombiner combiner = new ModelCombiner(TrainingSettings.defaults(Topics.defaults()).withModelId("m"));
        combiner.init(context);
        byte[] garbage = "not a snapshot".getBytes(StandardCharsets.UTF_8);
        context.setRecordMetadata(PARTIALS, 0, 0);
        combiner.process(new Record<>("m", garbage, 0L, new RecordHeaders().add("trace", new byte[100])));
        // A record the broker takes with ~1 MiB of headers: carried onto its dead letter it would be too large.
        context.setRecordMetadata(PARTIALS, 0, 1);
        combiner.process(new Record<>("m", garbage, 0L, new RecordHeaders().add("huge", new byte[1 << 20])));
        List<Record<? extends String, ? extends TrainingOutput>> letters = context.forwarded().stream()
                .<Record<? extends String, ? extends TrainingOutput>>map(f -> f.record())
                .filter(r -> r.value() instanceof TrainingOutput.Rejected).toList();
        assertEquals(2, letters.size());
        assertEquals(100, letters.get(0).headers().lastHeader("trace").value().length);
        assertFalse(letters.get(1).headers().iterator().hasNext(), "over the bound: no header carried");
    }
}
