package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.MODEL_ID;
import static io.gdastreams.topology.CombinerFixtures.encode;
import static io.gdastreams.topology.CombinerFixtures.keys;
import static io.gdastreams.topology.CombinerFixtures.snapshot;
import static io.gdastreams.topology.CombinerFixtures.store;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The combiner's state over its store: what it reads, writes and discards. */
class CombinerStateTest {

    private static final List<String> AB = List.of("a", "b");
    private static final List<String> NOT_CONFIGURED = List.of();

    private KeyValueStore<String, byte[]> store;
    private final List<CombinerState.Discarded> discarded = new ArrayList<>();

    @BeforeEach
    void createStore() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "state-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        store = store(new MockProcessorContext<>(props, new TaskId(1, 0), null), TrainingTopology.COMBINER_STORE);
    }

    private CombinerState load(List<String> configured) {
        return CombinerState.load(store, MODEL_ID, configured, discarded);
    }

    private static ModelParameters model(long version, Map<String, Long> sources, long total) {
        return new ModelParameters(MODEL_ID, version, AB, total, List.of(), sources, "2026-01-01T00:00:00Z", "app");
    }

    @Test
    void shouldStartEmptyWithTheConfiguredSchemaOrNone() {
        CombinerState fresh = load(NOT_CONFIGURED);
        assertEquals(List.of(), fresh.schema());
        assertEquals(0, fresh.version());
        assertTrue(fresh.lastPublished().isEmpty());
        assertTrue(fresh.snapshots().isEmpty());
        assertFalse(fresh.hasUnpublishedSnapshot());
        assertEquals(AB, load(AB).schema());
        assertTrue(discarded.isEmpty());
    }

    @Test
    void shouldFixTheSchemaFromTheFirstKeptSnapshotWithFeaturesAndWriteItThrough() {
        CombinerState state = load(NOT_CONFIGURED);
        PartialSnapshot withoutFeatures = snapshot(0, List.of(), Map.of());
        state.keep(withoutFeatures, encode(withoutFeatures));
        assertEquals(List.of(), state.schema(), "a snapshot of dead letters only fixes nothing");
        PartialSnapshot first = snapshot(1, AB, new double[][] {{1, 2}});

        state.keep(first, encode(first));

        assertEquals(AB, state.schema());
        assertEquals("[\"a\",\"b\"]", new String(store.get("schema"), StandardCharsets.UTF_8));
        assertArrayEquals(encode(first), store.get("partial:1"));
        assertEquals(Set.of("partial:0", "partial:1", "schema"), keys(store));
        assertTrue(state.fitsSchema(AB));
        assertTrue(state.fitsSchema(List.of()), "no features: nothing to merge, nothing to conflict");
        assertFalse(state.fitsSchema(List.of("a", "c")));
        assertEquals(1, state.kept(1).orElseThrow().progress().nextOffset());
        assertEquals(AB, load(NOT_CONFIGURED).schema(), "read back");
    }

    @Test
    void shouldWriteThePublishedModelAndKnowWhichSnapshotsAreNotInIt() {
        CombinerState state = load(NOT_CONFIGURED);
        PartialSnapshot p0 = snapshot(0, AB, new double[][] {{1, 2}, {3, 4}});
        state.keep(p0, encode(p0));
        assertTrue(state.hasUnpublishedSnapshot(), "kept, never published");
        ModelParameters model = model(3, Map.of("0", 2L), 2);
        byte[] record = "the model record".getBytes(StandardCharsets.UTF_8);

        state.published(model, PublishedModel.of(model, record));

        assertFalse(state.hasUnpublishedSnapshot());
        CombinerState reloaded = load(NOT_CONFIGURED);
        assertEquals(3, reloaded.version());
        assertFalse(reloaded.hasUnpublishedSnapshot(), "the lineage is read back");
        assertTrue(reloaded.lastPublished().orElseThrow().sameContent(PublishedModel.of(model, record)));
        PartialSnapshot newer = snapshot(0, AB, new double[][] {{1, 2}, {3, 4}, {5, 6}});
        reloaded.keep(newer, encode(newer));
        assertTrue(reloaded.hasUnpublishedSnapshot(), "partition 0 is beyond the published offset 2");
        assertTrue(discarded.isEmpty());
    }

    @Test
    void shouldDiscardKeptSnapshotsOfAnotherSchemaThanTheConfiguredOneWithoutCountingThemAsUnpublished() {
        CombinerState earlier = load(NOT_CONFIGURED);
        PartialSnapshot stale = snapshot(0, AB, new double[][] {{1, 2}});
        earlier.keep(stale, encode(stale));
        ModelParameters model = model(1, Map.of("0", 1L), 1);
        earlier.published(model, PublishedModel.of(model, new byte[] {1}));

        CombinerState state = load(List.of("a", "b", "c"));

        assertEquals(List.of("a", "b", "c"), state.schema(), "the configured schema wins over the stored one");
        assertTrue(state.snapshots().isEmpty());
        assertEquals(1, discarded.size());
        CombinerState.Discarded gone = discarded.get(0);
        assertEquals("partial:0", gone.key());
        assertArrayEquals(encode(stale), gone.value(), "the original bytes");
        assertEquals("schema conflict: kept snapshot of partition 0 has features [a, b] but model 'm' has [a, b, c];"
                + " discarded", gone.problem());
        assertEquals(null, store.get("partial:0"));
        assertFalse(state.hasUnpublishedSnapshot(), "the published model keeps that partition's data meanwhile");
    }

    @Test
    void shouldDiscardUnreadableEntriesAndKeepTheRest() {
        PartialSnapshot good = snapshot(2, AB, new double[][] {{1, 2}});
        store.put("partial:2", encode(good));
        store.put("published", "not json".getBytes(StandardCharsets.UTF_8));
        store.put("model", "{}".getBytes(StandardCharsets.UTF_8));
        store.put("other", new byte[0]);

        CombinerState state = load(NOT_CONFIGURED);

        assertEquals(List.of("model", "other", "published"), discarded.stream().map(CombinerState.Discarded::key)
                .toList(), "in store order");
        assertEquals("unreadable entry 'other' (unknown key); discarded", discarded.get(1).problem());
        assertTrue(discarded.get(2).problem().startsWith("unreadable entry 'published' ("), discarded.get(2).problem());
        assertEquals(Set.of("partial:2"), keys(store));
        assertEquals(1, state.snapshots().size());
        assertTrue(state.lastPublished().isEmpty());
        assertTrue(state.hasUnpublishedSnapshot(), "no lineage survived: the snapshot is not known to be published");
    }
}
