package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.PartitionStateReader.StoredGeneration;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reset generations outside the drift test: a partition's state keeps its generation and the offset it began at
 * across a reload (and reads the 16-byte entry of an earlier release, start unknown), {@link RetractionScope} decides
 * which retractions a generation takes, the partial snapshot carries the generation (layout version 4), and the
 * combiner merges only the partitions of the newest generation, holding the first model of a generation until every
 * class has gda.min.count again. Hand values throughout.
 */
class ResetGenerationTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final String APP_ID = "reset-generation-test";
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private static KeyValueStore<String, byte[]> store() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "state-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        MockProcessorContext<String, TrainingOutput> context = new MockProcessorContext<>(props, new TaskId(0, 0),
                null);
        KeyValueStore<String, byte[]> store = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(TrainingTopology.CLASS_STATS_STORE), SerdeFactory.string(),
                SerdeFactory.rawBytes()).withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    @Test
    void aStartedGenerationDropsTheClassesAndSurvivesAReload() {
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 0, List.of("x"));
        double[] xs = {1, 2, 4};
        for (int i = 0; i < xs.length; i++) {
            state.update("a", new double[] {xs[i]});
            state.setProgress(state.progress().afterRecord(i, true));
        }
        state.startGeneration(1, 3);
        state.update("b", new double[] {10});
        state.setProgress(state.progress().afterRecord(3, true));

        PartitionState reloaded = PartitionStates.load(store, 0, List.of("x"));
        assertEquals(new ResetGeneration(1, 3), reloaded.generation(), "3 events dropped by generation 1");
        assertEquals(List.of("b"), List.copyOf(reloaded.classes().keySet()));
        assertEquals(4, reloaded.progress().applied());
        assertEquals(10.0, reloaded.classes().get("b").mean()[0]);
        assertThrows(IllegalArgumentException.class, () -> reloaded.startGeneration(1, 4), "generations only rise");
    }

    /** A state of 3 events of class a (offsets 0 to 2), then generation 1 from offset 3, with one event of b. */
    private static KeyValueStore<String, byte[]> resetAtOffset3() {
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 0, List.of("x"));
        for (int i = 0; i < 3; i++) {
            state.update("a", new double[] {i});
            state.setProgress(state.progress().afterRecord(i, true));
        }
        state.startGeneration(1, 3);
        state.update("b", new double[] {10});
        state.setProgress(state.progress().afterRecord(3, true));
        return store;
    }

    @Test
    void theGenerationEntryKeepsTheOffsetTheGenerationBeganAt() {
        KeyValueStore<String, byte[]> store = resetAtOffset3();
        byte[] value = store.get(PartitionState.GENERATION_KEY);
        assertEquals(24, value.length, "number, dropped, start offset");
        ByteBuffer buffer = ByteBuffer.wrap(value);
        assertEquals(List.of(1L, 3L, 3L), List.of(buffer.getLong(), buffer.getLong(), buffer.getLong()));
        PartitionState reloaded = PartitionStates.load(store, 0, List.of("x"));
        assertEquals(new ResetGeneration(1, 3), reloaded.generation());
        assertEquals(3, reloaded.generationStart());
        assertEquals(StoredGeneration.UNKNOWN_START, PartitionStates.load(store(), 0, List.of("x")).generationStart(),
                "generation 0 has no start offset");
    }

    @Test
    void aGenerationEntryOfAnEarlierReleaseLoadsWithAnUnknownStartAndRetractionsApplyAsBefore() {
        KeyValueStore<String, byte[]> store = resetAtOffset3();
        // What the previous release wrote: 16 bytes, generation and dropped events.
        store.put(PartitionState.GENERATION_KEY, ByteBuffer.allocate(16).putLong(1).putLong(3).array());
        PartitionState reloaded = PartitionStates.load(store, 0, List.of("x"));
        assertEquals(new ResetGeneration(1, 3), reloaded.generation());
        assertEquals(StoredGeneration.UNKNOWN_START, reloaded.generationStart());
        assertEquals(List.of("b"), List.copyOf(reloaded.classes().keySet()));
        assertNull(RetractionScope.refusal(LabelledEvent.NO_OFFSET, 4, reloaded), "no offset: applied as before");
        assertNull(RetractionScope.refusal(0, 4, reloaded), "which events were dropped is not known: as before");
        assertNotNull(RetractionScope.refusal(4, 4, reloaded), "not an earlier event");
        // The next reset writes the current form.
        reloaded.startGeneration(2, 4);
        assertEquals(24, store.get(PartitionState.GENERATION_KEY).length);
        assertEquals(4, PartitionStates.load(store, 0, List.of("x")).generationStart());

        store.put(PartitionState.GENERATION_KEY, new byte[20]);
        TrainingStateException damaged = assertThrows(TrainingStateException.class,
                () -> PartitionStates.load(store, 0, List.of("x")));
        assertTrue(damaged.getMessage().contains("unreadable reset generation: expected 24 (or 16) bytes, got 20"),
                damaged.getMessage());
    }

    @Test
    void aRetractionAfterAResetMustNameAnEventOfItsGeneration() {
        KeyValueStore<String, byte[]> store = store();
        PartitionState state = PartitionStates.load(store, 0, List.of("x"));
        // Generation 0: with or without an offset, as before; an offset not before its own is refused.
        assertNull(RetractionScope.refusal(LabelledEvent.NO_OFFSET, 5, state));
        assertNull(RetractionScope.refusal(0, 5, state));
        assertEquals("retraction: retractsOffset 5 is not before the retraction's own offset 5 (a retraction can"
                + " only take back an earlier event of its partition)", RetractionScope.refusal(5, 5, state));
        assertNotNull(RetractionScope.refusal(6, 5, state));

        PartitionState reset = PartitionStates.load(resetAtOffset3(), 0, List.of("x"));
        assertEquals("retraction: its event (offset 2) was dropped by the drift reset to generation 1, which began at"
                + " offset 3 (partition 0)", RetractionScope.refusal(2, 5, reset));
        assertEquals("retraction without retractsOffset after a drift reset (partition 0 is in generation 1, which"
                + " began at offset 3): whether its event was dropped cannot be told; give the original's offset",
                RetractionScope.refusal(LabelledEvent.NO_OFFSET, 5, reset));
        assertNull(RetractionScope.refusal(3, 5, reset), "the first event of the generation is held");
        assertNull(RetractionScope.refusal(4, 5, reset));
        assertNotNull(RetractionScope.refusal(5, 5, reset));
    }

    private static PartialSnapshot snapshot(int partition, long nextOffset, ResetGeneration generation,
                                            Map<String, double[]> classes) {
        SortedMap<String, RunningGaussian> stats = new TreeMap<>();
        long applied = generation.dropped();
        for (var entry : classes.entrySet()) {
            RunningGaussian g = new RunningGaussian(1);
            for (double x : entry.getValue()) {
                g.update(new double[] {x});
            }
            stats.put(entry.getKey(), g);
            applied += entry.getValue().length;
        }
        return new PartialSnapshot("m", new PartitionProgress(partition, nextOffset, applied, 0, List.of("x")), stats,
                new TreeMap<>(), generation);
    }

    @Test
    void theSnapshotCarriesItsGenerationAsVersion4AndIsCheckedAgainstIt() {
        var serde = SerdeFactory.partialSnapshot();
        PartialSnapshot before = snapshot(2, 9, new ResetGeneration(3, 5), Map.of("a", new double[] {1, 3}));
        byte[] bytes = serde.serializer().serialize(null, before);
        assertEquals(4, bytes[0], "layout version 4");
        PartialSnapshot after = serde.deserializer().deserialize(null, bytes);
        assertEquals(new ResetGeneration(3, 5), after.generation());
        assertEquals(7, after.progress().applied());
        assertEquals(2.0, after.classes().get("a").mean()[0]);
        // Generation 0 is written as before (version 1).
        assertEquals(1, serde.serializer().serialize(null,
                snapshot(2, 9, ResetGeneration.NONE, Map.of("a", new double[] {1})))[0]);
        // A dropped count that does not add up to the applied count is damage.
        bytes[bytes.length - 1] = 4; // dropped 5 -> 4
        assertThrows(SerializationException.class, () -> serde.deserializer().deserialize(null, bytes));
    }

    private static ClassParameters byLabel(ModelParameters model, String label) {
        return model.classes().stream().filter(c -> c.label().equals(label)).findFirst().orElseThrow();
    }

    @Test
    void theCombinerMergesOnlyTheNewestGenerationAndHoldsItUntilEveryClassHasTheMinimumCount() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL);
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID, TrainingFixtures.DRIVER_START);
        TestInputTopic<String, byte[]> partials = DriverTopics.input(driver, TrainingTopology.partials(APP_ID));
        TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, TOPICS.model());
        var encoder = SerdeFactory.partialSnapshot().serializer();

        partials.pipeInput("m", encoder.serialize(null, snapshot(0, 4, ResetGeneration.NONE,
                Map.of("a", new double[] {0, 2}, "b", new double[] {10, 12}))));
        partials.pipeInput("m", encoder.serialize(null, snapshot(1, 4, ResetGeneration.NONE,
                Map.of("a", new double[] {4, 6}, "b", new double[] {14, 16}))));
        driver.advanceWallClockTime(INTERVAL);
        ModelParameters old = last(models);
        assertEquals(0, old.resetGeneration());
        assertEquals(3.0, byLabel(old, "a").mean()[0], "a: mean of 0, 2, 4, 6");

        // Partition 1 resets (its 4 events dropped) and has seen 2 a and 1 b since: b is below gda.min.count = 2.
        partials.pipeInput("m", encoder.serialize(null, snapshot(1, 7, new ResetGeneration(1, 4),
                Map.of("a", new double[] {100, 102}, "b", new double[] {-10}))));
        driver.advanceWallClockTime(INTERVAL);
        assertTrue(models.isEmpty(), "held: class b has 1 event of generation 1");

        partials.pipeInput("m", encoder.serialize(null, snapshot(1, 8, new ResetGeneration(1, 4),
                Map.of("a", new double[] {100, 102}, "b", new double[] {-10, -12}))));
        driver.advanceWallClockTime(INTERVAL);
        ModelParameters reset = last(models);
        assertEquals(1, reset.resetGeneration());
        assertTrue(reset.version() > old.version());
        assertEquals(4, reset.totalCount(), "partition 0's events of generation 0 are not merged");
        assertEquals(101.0, byLabel(reset, "a").mean()[0]);
        assertEquals(-11.0, byLabel(reset, "b").mean()[0]);
        assertEquals(Map.of("0", 4L, "1", 8L), reset.sources(), "the lineage names both partitions");
        assertEquals(8, reset.resetDropped(), "partition 0's 4 events (still generation 0), partition 1's 4 dropped");
        assertEquals(old.eventsAbsorbed() + 4, reset.eventsAbsorbed(), "events absorbed never shrink");

        // Partition 0 follows (generation 1, its 4 events dropped) with one a of the new regime: merged now.
        partials.pipeInput("m", encoder.serialize(null, snapshot(0, 5, new ResetGeneration(1, 4),
                Map.of("a", new double[] {104}))));
        driver.advanceWallClockTime(INTERVAL);
        ModelParameters both = last(models);
        assertEquals(1, both.resetGeneration());
        assertEquals(5, both.totalCount());
        assertEquals(102.0, byLabel(both, "a").mean()[0], "a: mean of 100, 102, 104");
        assertEquals(3, byLabel(both, "a").count());
        assertEquals(8, both.resetDropped());
    }

    private static ModelParameters last(TestOutputTopic<String, ModelParameters> models) {
        List<ModelParameters> all = models.readValuesToList();
        assertTrue(!all.isEmpty(), "a model was published");
        return all.get(all.size() - 1);
    }
}
