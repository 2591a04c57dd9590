package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.MODEL_ID;
import static io.gdastreams.topology.CombinerFixtures.encode;
import static io.gdastreams.topology.CombinerFixtures.snapshot;
import static io.gdastreams.topology.CombinerFixtures.store;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which partial snapshot records the combiner refuses, ignores or accepts. */
class SnapshotIntakeTest {

    private static final String TOPIC = "partials";
    private static final List<String> AB = List.of("a", "b");

    private final SnapshotIntake intake = new SnapshotIntake(MODEL_ID);
    private CombinerState state;

    @BeforeEach
    void keepPartitionZeroAtOffsetTwo() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "intake-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        state = CombinerState.load(store(new MockProcessorContext<>(props, new TaskId(1, 0), null),
                TrainingTopology.COMBINER_STORE), MODEL_ID, List.of(), new ArrayList<>());
        PartialSnapshot kept = snapshot(0, AB, new double[][] {{1, 2}, {3, 4}});
        state.keep(kept, encode(kept));
    }

    @Test
    void shouldAcceptANewerSnapshotOrOneOfANewPartition() {
        PartialSnapshot newer = snapshot(0, AB, new double[][] {{1, 2}, {3, 4}, {5, 6}});
        assertEquals(newer.progress(), assertInstanceOf(SnapshotIntake.Accepted.class,
                intake.judge(TOPIC, encode(newer), state)).snapshot().progress());
        assertInstanceOf(SnapshotIntake.Accepted.class,
                intake.judge(TOPIC, encode(snapshot(1, AB, new double[][] {{0, 0}})), state));
    }

    @Test
    void shouldIgnoreASnapshotNotNewerThanTheKeptOne() {
        SnapshotIntake.Stale same = assertInstanceOf(SnapshotIntake.Stale.class,
                intake.judge(TOPIC, encode(snapshot(0, AB, new double[][] {{7, 7}, {8, 8}})), state));
        assertEquals(2, same.keptOffset());
        assertTrue(same.resent(), "up to the kept offset: the kept snapshot sent again (a quiet word)");
        assertSame(same.snapshot(), same.current(), "a quiet word tells who trains the partition now");
        SnapshotIntake.Stale older = assertInstanceOf(SnapshotIntake.Stale.class,
                intake.judge(TOPIC, encode(snapshot(0, AB, new double[][] {{1, 2}})), state));
        assertFalse(older.resent(), "an older snapshot is a replay, not a quiet word");
        assertNull(older.current(), "a replay may come from an instance that no longer trains the partition");
        assertEquals(0, older.partition());
    }

    /**
     * The audit's forged record: newer (a far offset) but holding fewer events than the kept snapshot. Kept, it took
     * the model below the published one and the trainer stopped at every start; refused as a conflict (warned,
     * dead-lettered), the kept snapshot stays. A reset generation counts its dropped events as applied.
     */
    @Test
    void shouldRefuseANewerSnapshotThatHoldsLessThanTheKeptOne() {
        PartialSnapshot kept = snapshot(0, AB, new double[][] {{1, 2}, {3, 4}, {5, 6}});
        state.keep(kept, encode(kept));
        PartialSnapshot forged = new PartialSnapshot(MODEL_ID, new PartitionProgress(0, 1_000_000_000_000L, 2, 0, AB),
                snapshot(0, AB, new double[][] {{1, 1}, {2, 3}}).classes());
        SnapshotIntake.Refused fewer = assertInstanceOf(SnapshotIntake.Refused.class,
                intake.judge(TOPIC, encode(forged), state));
        assertEquals("partial snapshot of partition 0 up to offset 1000000000000 has applied 2 events, fewer than the"
                + " 3 of the kept one up to offset 3: a trainer task's applied events never shrink", fewer.reason());
        assertTrue(fewer.conflict());
        assertNull(fewer.current(), "it tells nothing of who trains the partition");

        PartialSnapshot reset = new PartialSnapshot(MODEL_ID, new PartitionProgress(0, 5, 5, 0, AB),
                snapshot(0, AB, new double[][] {{9, 9}}).classes(), new TreeMap<>(),
                new io.gdastreams.model.ResetGeneration(2, 4));
        assertInstanceOf(SnapshotIntake.Accepted.class, intake.judge(TOPIC, encode(reset), state),
                "a reset: one event in the new generation, the old three (and one more) dropped");
        state.keep(reset, encode(reset));
        PartialSnapshot more = snapshot(0, AB, new double[][] {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 9}, {1, 1}});
        assertInstanceOf(SnapshotIntake.Accepted.class, intake.judge(TOPIC, encode(new PartialSnapshot(MODEL_ID,
                new PartitionProgress(0, 11, 10, 0, AB), more.classes(), new TreeMap<>(),
                new io.gdastreams.model.ResetGeneration(2, 4))), state), "six in the generation, four dropped");
    }

    @Test
    void shouldRefuseAnUnreadableOrNullRecordAsDamagedNotAsAConflict() {
        SnapshotIntake.Refused garbage = assertInstanceOf(SnapshotIntake.Refused.class,
                intake.judge(TOPIC, "garbage".getBytes(StandardCharsets.UTF_8), state));
        assertTrue(garbage.reason().startsWith("unreadable partial snapshot: "), garbage.reason());
        assertFalse(garbage.conflict());
        assertEquals(new SnapshotIntake.Refused("null partial snapshot", false), intake.judge(TOPIC, null, state));
    }

    @Test
    void shouldRefuseASnapshotOfAnotherModelOrSchemaAsAConflict() {
        TreeMap<String, RunningGaussian> none = new TreeMap<>();
        PartialSnapshot otherModel = new PartialSnapshot("other", new PartitionProgress(3, 5, 0, 5, AB), none);
        SnapshotIntake.Refused ofOtherModel = assertInstanceOf(SnapshotIntake.Refused.class,
                intake.judge(TOPIC, encode(otherModel), state));
        assertEquals("partial snapshot of partition 3 is for model 'other', this combiner builds model 'm'",
                ofOtherModel.reason());
        assertTrue(ofOtherModel.conflict());
        assertEquals("other", ofOtherModel.otherModel());
        assertNull(ofOtherModel.current(), "another model's snapshot says nothing of how this model is trained");

        PartialSnapshot otherSchema = snapshot(1, List.of("a", "c"), new double[][] {{1, 2}, {3, 4}, {5, 6}});
        SnapshotIntake.Refused ofOtherSchema = assertInstanceOf(SnapshotIntake.Refused.class,
                intake.judge(TOPIC, encode(otherSchema), state));
        assertEquals("schema conflict: partition 1 has features [a, c] but model 'm' has [a, b]; its 3 events up to"
                + " offset 3 are left out of the model", ofOtherSchema.reason());
        assertTrue(ofOtherSchema.conflict());
        assertNull(ofOtherSchema.otherModel());
        assertEquals(1, ofOtherSchema.current().progress().partition(),
                "refused, and partition 1 has no kept snapshot: it tells who trains partition 1");

        // Partition 0 keeps a snapshot to offset 2: a refused one from offset 2 on tells who trains it, an older
        // one (a replay) does not.
        SnapshotIntake.Refused newer = assertInstanceOf(SnapshotIntake.Refused.class, intake.judge(TOPIC,
                encode(snapshot(0, List.of("a", "c"), new double[][] {{1, 2}, {3, 4}})), state));
        assertEquals(0, newer.current().progress().partition(), "refused, but it tells who trains partition 0");
        assertNull(assertInstanceOf(SnapshotIntake.Refused.class, intake.judge(TOPIC,
                encode(snapshot(0, List.of("a", "c"), new double[][] {{1, 2}})), state)).current());
    }

    @Test
    void shouldAcceptASnapshotWithoutFeaturesUnderAnySchema() {
        PartialSnapshot deadLettersOnly = new PartialSnapshot(MODEL_ID, new PartitionProgress(4, 9, 0, 9, List.of()),
                new TreeMap<>(Map.of()));
        assertInstanceOf(SnapshotIntake.Accepted.class, intake.judge(TOPIC, encode(deadLettersOnly), state));
    }

    @Test
    void shouldRefuseDiagonalStatisticsUnderFullStatisticsAsAConflict() {
        // An instance configured with gda.statistics=diagonal sent them; pooled in, the model would lose its
        // covariances (an operator audit saw it). A diagonal trainer takes full ones as their diagonals.
        PartialSnapshot full = snapshot(1, AB, new double[][] {{1, 2}, {3, 5}, {6, 1}});
        TreeMap<String, RunningGaussian> diagonals = new TreeMap<>();
        full.classes().forEach((label, g) -> diagonals.put(label, g.diagonalCopy()));
        PartialSnapshot diagonal = new PartialSnapshot(MODEL_ID, full.progress(), diagonals);
        SnapshotIntake.Refused refused = assertInstanceOf(SnapshotIntake.Refused.class,
                intake.judge(TOPIC, encode(diagonal), state));
        assertEquals("statistics conflict: partition 1 keeps diagonal statistics (an instance with"
                + " gda.statistics=diagonal) but this trainer has gda.statistics=full; instances of one application"
                + " must share one configuration (docs/RELIABILITY.md); its 3 events up to offset 3 are left out of"
                + " the model", refused.reason());
        assertTrue(refused.conflict());
        assertInstanceOf(SnapshotIntake.Accepted.class, intake.judge(TOPIC, encode(full), state));
        SnapshotIntake diagonalTrainer = new SnapshotIntake(MODEL_ID, List.of(), Statistics.DIAGONAL);
        assertInstanceOf(SnapshotIntake.Accepted.class, diagonalTrainer.judge(TOPIC, encode(diagonal), state));
        assertInstanceOf(SnapshotIntake.Accepted.class, diagonalTrainer.judge(TOPIC, encode(full), state));
    }
}
