package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gda.statistics=diagonal} through the training topology (partial snapshots in the general layout, version 4,
 * the combiner's pooling): the published model has the hand-computed means and variances and zero covariances,
 * where the same events with full statistics give the off-diagonal entry too.
 */
class TrainingDiagonalStatisticsTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    private static final double EXACT = 1e-15;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestOutputTopic<String, ModelParameters> models;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private ClassParameters train(Statistics statistics) {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withStatistics(statistics);
        driver = TrainingFixtures.trainingDriver(settings, stateDir.resolve(statistics.name()),
                "training-diagonal-test", TrainingFixtures.DRIVER_START);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        models = DriverTopics.output(driver, TOPICS.model());
        // Class a: (1, 2), (3, 6), (5, 4): mean (3, 4); S = [[8, 4], [4, 8]] (S_01 = (−2)(−2) + 0·2 + 2·0).
        for (String xy : new String[] {"1,2", "3,6", "5,4"}) {
            String[] v = xy.split(",");
            String json = "{\"features\":{\"x\":" + v[0] + ",\"y\":" + v[1] + "},\"label\":\"a\"}";
            labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
        }
        driver.advanceWallClockTime(INTERVAL);
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> all = models.readValuesToList();
        assertTrue(!all.isEmpty(), "a model was published");
        ModelParameters model = all.get(all.size() - 1);
        driver.close();
        driver = null;
        assertEquals(List.of("x", "y"), model.features());
        assertEquals(1, model.classes().size());
        return model.classes().get(0);
    }

    @Test
    void theModelHasTheVariancesAndNoCovariances() {
        ClassParameters a = train(Statistics.DIAGONAL);
        assertEquals(3, a.count());
        assertArrayEquals(new double[] {3, 4}, a.mean(), EXACT);
        // MLE: S / n.
        assertArrayEquals(new double[] {8.0 / 3, 0.0}, a.covariance()[0], EXACT);
        assertArrayEquals(new double[] {0.0, 8.0 / 3}, a.covariance()[1], EXACT);
    }

    @Test
    void fullStatisticsOfTheSameEventsKeepTheCovariance() {
        ClassParameters a = train(Statistics.FULL);
        assertArrayEquals(new double[] {8.0 / 3, 4.0 / 3}, a.covariance()[0], EXACT);
        assertArrayEquals(new double[] {4.0 / 3, 8.0 / 3}, a.covariance()[1], EXACT);
    }
}
