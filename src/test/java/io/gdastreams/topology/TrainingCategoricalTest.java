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
 * Categorical features through the training topology (TopologyTestDriver): the model carries per class the count of
 * each value (hand counts), the counts of several partitions add exactly, and what does not fit is dead-lettered with
 * the reason.
 */
class TrainingCategoricalTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    private static final String APP_ID = "training-categorical-test";

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> labelled;
    private TestInputTopic<String, byte[]> partialsIn;
    private TestOutputTopic<String, ModelParameters> models;
    private TestOutputTopic<byte[], DeadLetter> deadLetters;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private static TrainingSettings settings(int maxValues) {
        return TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withCategorical(CategoricalSettings.NONE.withFeatures(List.of("student", "flag"))
                        .withMaxValues(maxValues));
    }

    private void start(TrainingSettings settings, String guarantee) {
        driver = TrainingFixtures.trainingDriver(settings, stateDir, APP_ID, TrainingFixtures.DRIVER_START, guarantee);
        labelled = DriverTopics.input(driver, TOPICS.labelled());
        partialsIn = DriverTopics.input(driver, TrainingTopology.partials(APP_ID));
        models = DriverTopics.output(driver, TOPICS.model());
        deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
    }

    private void send(String json) {
        labelled.pipeInput("k".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
    }

    private ModelParameters lastModel() {
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> all = models.readValuesToList();
        assertTrue(!all.isEmpty(), "a model was published");
        return all.get(all.size() - 1);
    }

    @Test
    void shouldPublishTheCountsOfEachValuePerClass() {
        start(settings(256), StreamsConfig.EXACTLY_ONCE_V2);
        send("{\"features\":{\"balance\":1.0,\"student\":\"Yes\",\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":2.0,\"student\":\"No\",\"flag\":false},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":3.0,\"student\":\"No\",\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":9.0,\"student\":\"Yes\",\"flag\":true},\"label\":\"Yes\"}");
        ModelParameters model = lastModel();
        assertEquals(List.of("balance"), model.features(), "the continuous features only");
        assertEquals(List.of("student", "flag"), model.categoricalFeatures());
        assertEquals(4, model.totalCount());
        assertArrayEquals(new double[] {2.0}, model.classes().get(0).mean());
        CategoricalTable student = model.categorical().get(0);
        assertEquals(List.of("No", "Yes"), student.values());
        assertArrayEquals(new long[] {2, 1}, student.counts().get(0), "class No");
        assertArrayEquals(new long[] {0, 1}, student.counts().get(1), "class Yes");
        CategoricalTable flag = model.categorical().get(1);
        assertEquals(List.of("false", "true"), flag.values(), "JSON booleans are the values true and false");
        assertArrayEquals(new long[] {1, 2}, flag.counts().get(0));
        assertArrayEquals(new long[] {0, 1}, flag.counts().get(1));
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    void shouldDeadLetterWhatDoesNotFitTheCategoricalSchema() {
        start(settings(2), StreamsConfig.EXACTLY_ONCE_V2);
        send("{\"features\":{\"balance\":1.0,\"student\":\"Yes\",\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":1.0,\"student\":1,\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":\"high\",\"student\":\"No\",\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":1.0,\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"student\":\"No\",\"flag\":true},\"label\":\"No\"}");
        send("{\"features\":{\"balance\":2.0,\"student\":\"No\",\"flag\":true},\"label\":\"Yes\"}");
        send("{\"features\":{\"balance\":2.0,\"student\":\"Maybe\",\"flag\":true},\"label\":\"Yes\"}");
        List<String> reasons = deadLetters.readValuesToList().stream().map(DeadLetter::reason).toList();
        assertEquals(5, reasons.size(), reasons.toString());
        assertEquals("feature 'student' is categorical (gda.categorical.features) but its value is a number: 1",
                reasons.get(0));
        assertEquals("feature 'balance' is not a number: \"high\"", reasons.get(1));
        assertEquals("categorical feature(s) missing: [student] (gda.categorical.features)", reasons.get(2));
        assertTrue(reasons.get(3).startsWith("no continuous feature"), reasons.get(3));
        assertEquals("too many values of categorical feature 'student': value 'Maybe' would be value 3 (at most 2,"
                + " gda.categorical.max.values)", reasons.get(4));
        ModelParameters model = lastModel();
        assertEquals(2, model.totalCount());
        assertEquals(List.of("No", "Yes"), model.categorical().get(0).values());
    }

    @Test
    void shouldAddTheCountsOfThePartitionsExactly() {
        start(settings(256), StreamsConfig.AT_LEAST_ONCE);
        partialsIn.pipeInput("m", snapshot(0, new String[][] {{"Yes", "true"}, {"No", "true"}}, "a"));
        partialsIn.pipeInput("m", snapshot(1, new String[][] {{"No", "false"}, {"No", "true"}, {"Zzz", "true"}},
                "a"));
        ModelParameters model = lastModel();
        assertEquals(5, model.classes().get(0).count());
        CategoricalTable student = model.categorical().get(0);
        assertEquals(List.of("No", "Yes", "Zzz"), student.values(), "the union of the partitions' values");
        assertArrayEquals(new long[] {3, 1, 1}, student.counts().get(0));
        assertArrayEquals(new long[] {1, 4}, model.categorical().get(1).counts().get(0));
    }

    @Test
    void shouldRefuseASnapshotWithoutTheConfiguredCategoricalFeatures() {
        start(settings(256), StreamsConfig.AT_LEAST_ONCE);
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        RunningGaussian g = new RunningGaussian(1);
        g.update(new double[] {1});
        classes.put("a", g);
        partialsIn.pipeInput("m", SerdeFactory.partialSnapshot().serializer().serialize(null, new PartialSnapshot("m",
                new PartitionProgress(0, 1, 1, 0, List.of("balance")), classes)));
        List<String> reasons = deadLetters.readValuesToList().stream().map(DeadLetter::reason).toList();
        assertEquals(1, reasons.size());
        assertTrue(reasons.get(0).startsWith("categorical schema conflict: partition 0 counts the categorical"
                + " features [] but model 'm' has [student, flag]"), reasons.get(0));
    }

    private static byte[] snapshot(int partition, String[][] values, String label) {
        RunningGaussian g = new RunningGaussian(1);
        CategoryCounts counts = new CategoryCounts(List.of("student", "flag"));
        for (int i = 0; i < values.length; i++) {
            g.update(new double[] {i});
            counts.update(values[i]);
        }
        SortedMap<String, RunningGaussian> classes = new TreeMap<>();
        classes.put(label, g);
        SortedMap<String, CategoryCounts> categories = new TreeMap<>();
        categories.put(label, counts);
        return SerdeFactory.partialSnapshot().serializer().serialize(null, new PartialSnapshot("m",
                new PartitionProgress(partition, values.length, values.length, 0, List.of("balance")), classes,
                categories));
    }
}
