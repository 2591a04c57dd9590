package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drift reset under categorical features, through the training topology (TopologyTestDriver): partition 0 follows
 * the reset generation of a model published from partition 1's snapshot, and its category counts and known values
 * restart with its statistics. The old regime's values then neither reach the model nor count towards
 * {@code gda.categorical.max.values}. Hand counts throughout.
 */
class DriftResetCategoricalTopologyTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    private static final String APP_ID = "drift-reset-categorical-test";
    private static final List<String> CATEGORICAL = List.of("student");
    /** Means of a few small integers. */
    private static final double HAND_TOLERANCE = 1e-12;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private static byte[] event(double balance, String student, String label) {
        return ("{\"features\":{\"balance\":" + balance + ",\"student\":\"" + student + "\"},\"label\":\"" + label
                + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /** Partition 1 in generation 1 (its first 5 events dropped): a at 10 and 12, b at 20 and 22, all "Maybe". */
    private static byte[] generationOneSnapshotOfPartition1() {
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        SortedMap<String, CategoryCounts> categories = new TreeMap<>();
        double[][] points = {{10, 12}, {20, 22}};
        String[] labels = {"a", "b"};
        for (int c = 0; c < labels.length; c++) {
            RunningGaussian g = new RunningGaussian(1);
            CategoryCounts counts = new CategoryCounts(CATEGORICAL);
            for (double x : points[c]) {
                g.update(new double[] {x});
                counts.update(new String[] {"Maybe"});
            }
            classes.put(labels[c], g);
            categories.put(labels[c], counts);
        }
        PartialSnapshot snapshot = new PartialSnapshot("m", new PartitionProgress(1, 9, 9, 0, List.of("balance")),
                classes, categories, new ResetGeneration(1, 5));
        return SerdeFactory.partialSnapshot().serializer().serialize(null, snapshot);
    }

    @Test
    void theCategoryCountsAndValuesOfAPartitionRestartWithTheGenerationItFollows() {
        // At most 2 values of student: Yes and No of the old regime would leave no room for a new one.
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withCategorical(CategoricalSettings.NONE.withFeatures(CATEGORICAL).withMaxValues(2));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID,
                TrainingFixtures.DRIVER_START, StreamsConfig.EXACTLY_ONCE_V2);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, TOPICS.model());
        TestOutputTopic<byte[], DeadLetter> letters = DriverTopics.output(driver, TOPICS.deadLetters());
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);

        labelled.pipeInput(key, event(1, "Yes", "a")); // offsets 0 to 2: generation 0
        labelled.pipeInput(key, event(2, "No", "a"));
        labelled.pipeInput(key, event(3, "No", "b"));
        driver.advanceWallClockTime(INTERVAL);
        DriverTopics.input(driver, TrainingTopology.partials(APP_ID))
                .pipeInput("m", generationOneSnapshotOfPartition1());
        driver.advanceWallClockTime(INTERVAL);
        assertEquals(1, models.readValuesToList().stream().filter(m -> m.resetGeneration() == 1).count(),
                "a model of generation 1 (Maybe only) was published");

        // Offset 3: partition 0 takes up generation 1; "Other" is value 2 of student (Maybe, Other), within the bound.
        labelled.pipeInput(key, event(5, "Other", "a"));
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);

        assertEquals(List.of(), letters.readValuesToList().stream().map(DeadLetter::reason).toList());
        List<ModelParameters> published = models.readValuesToList();
        assertTrue(!published.isEmpty(), "a model was published");
        ModelParameters model = published.get(published.size() - 1);
        assertEquals(1, model.resetGeneration());
        assertEquals(5, model.totalCount(), "partition 1's 4 events and partition 0's one of generation 1");
        assertEquals(8, model.resetDropped(), "partition 1's 5 and partition 0's 3 events of generation 0");
        assertEquals(3, model.classes().get(0).count());
        assertEquals(9.0, model.classes().get(0).mean()[0], HAND_TOLERANCE, "a: (10 + 12 + 5) / 3");
        CategoricalTable student = model.categorical().get(0);
        assertEquals(List.of("Maybe", "Other"), student.values(), "Yes and No were dropped with generation 0");
        assertArrayEquals(new long[] {2, 1}, student.counts().get(0), "class a");
        assertArrayEquals(new long[] {2, 0}, student.counts().get(1), "class b");
    }
}
