package io.gdastreams.topology;

import static io.gdastreams.topology.CombinerFixtures.MODEL_ID;
import static io.gdastreams.topology.CombinerFixtures.encode;
import static io.gdastreams.topology.CombinerFixtures.store;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Category counts merge only over the model's categorical features in its order (the counts are kept by a feature's
 * position): a snapshot counting other features, or the same in another order, or counting any under a model
 * without categorical features, comes from an instance configured otherwise and is refused as a conflict.
 */
class SnapshotIntakeCategoricalTest {

    private static final String TOPIC = "partials";
    private static final List<String> MODEL_CATEGORICAL = List.of("student", "flag");

    private CombinerState state;

    @BeforeEach
    void emptyState() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "intake-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        state = CombinerState.load(store(new MockProcessorContext<>(props, new TaskId(1, 0), null),
                TrainingTopology.COMBINER_STORE), MODEL_ID, List.of(), new ArrayList<>());
    }

    @Test
    void shouldAcceptCountsOverTheModelsCategoricalFeatures() {
        SnapshotIntake intake = new SnapshotIntake(MODEL_ID, MODEL_CATEGORICAL, Statistics.FULL);
        assertInstanceOf(SnapshotIntake.Accepted.class, intake.judge(TOPIC,
                encode(snapshot(MODEL_CATEGORICAL, new String[] {"Yes", "true"}, new String[] {"No", "false"})),
                state));
    }

    @Test
    void shouldRefuseCountsOverOtherCategoricalFeaturesOrInAnotherOrder() {
        SnapshotIntake intake = new SnapshotIntake(MODEL_ID, MODEL_CATEGORICAL, Statistics.FULL);
        SnapshotIntake.Refused fewer = refused(intake, snapshot(List.of("student"), new String[] {"Yes"},
                new String[] {"No"}));
        assertEquals("categorical schema conflict: partition 1 counts the categorical features [student] but model"
                + " 'm' has [student, flag]; its 2 events up to offset 2 are left out of the model", fewer.reason());
        SnapshotIntake.Refused swapped = refused(intake, snapshot(List.of("flag", "student"),
                new String[] {"true", "Yes"}, new String[] {"false", "No"}));
        assertTrue(swapped.reason().startsWith("categorical schema conflict: partition 1 counts the categorical"
                + " features [flag, student] but model 'm' has [student, flag]"), swapped.reason());
    }

    @Test
    void shouldRefuseCountsUnderAModelWithoutCategoricalFeatures() {
        SnapshotIntake gaussian = new SnapshotIntake(MODEL_ID);
        String reason = refused(gaussian, snapshot(List.of("student"), new String[] {"Yes"}, new String[] {"No"}))
                .reason();
        assertTrue(reason.startsWith("categorical schema conflict: partition 1 counts the categorical features"
                + " [student] but model 'm' has []"), reason);
    }

    private SnapshotIntake.Refused refused(SnapshotIntake intake, PartialSnapshot snapshot) {
        SnapshotIntake.Refused refused = assertInstanceOf(SnapshotIntake.Refused.class,
                intake.judge(TOPIC, encode(snapshot), state));
        assertTrue(refused.conflict(), "a readable snapshot of an instance configured otherwise");
        return refused;
    }

    /** Partition 1's snapshot of two events of class "a" (x = 0, 1) with the categorical {@code values}. */
    private static PartialSnapshot snapshot(List<String> categorical, String[]... values) {
        RunningGaussian g = new RunningGaussian(1);
        CategoryCounts counts = new CategoryCounts(categorical);
        for (int i = 0; i < values.length; i++) {
            g.update(new double[] {i});
            counts.update(values[i]);
        }
        TreeMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put("a", g);
        TreeMap<String, CategoryCounts> categories = new TreeMap<>();
        categories.put("a", counts);
        return new PartialSnapshot(MODEL_ID, new PartitionProgress(1, values.length, values.length, 0,
                List.of("x")), classes, categories);
    }
}
