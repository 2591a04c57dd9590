package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model record never exceeds the record limit, whatever the labels: the trainer refuses classes beyond it. */
class ModelSizeBoundTest {

    private static final long SEED = 4_2424L;
    /** The longest double in JSON: every number of a worst-case model takes this many characters. */
    private static final double LONGEST_DOUBLE = -2.2250738585072014E-308;

    @TempDir
    Path stateDir;

    @Test
    void shouldKeepAWorstCaseModelOfTheBoundsClassCountWithinTheLimit() {
        int d = 48;
        List<String> features = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            features.add("feature-" + j);
        }
        long limit = 4L * 1024 * 1024;
        long k = ModelSizeBound.maxClasses(features, limit);
        assertTrue(k >= 10, "room for " + k + " classes");
        double[] mean = new double[d];
        double[][] covariance = new double[d][d];
        Arrays.fill(mean, LONGEST_DOUBLE);
        for (double[] row : covariance) {
            Arrays.fill(row, LONGEST_DOUBLE);
        }
        List<ClassParameters> classes = new ArrayList<>();
        Map<String, Long> sources = new HashMap<>();
        for (int c = 0; c < k; c++) {
            // 256 characters that JSON escapes as \\uXXXX: the longest label the decoder accepts, encoded.
            classes.add(new ClassParameters(String.valueOf(c) + "\u2028".repeat(255), Long.MAX_VALUE, LONGEST_DOUBLE,
                    mean, covariance));
        }
        for (int p = 0; p < 1000; p++) {
            sources.put(Integer.toString(p), Long.MAX_VALUE);
        }
        ModelParameters model = new ModelParameters("m".repeat(200), Long.MAX_VALUE, features, Long.MAX_VALUE,
                classes, sources, Instant.now().toString(), "a".repeat(200));

        int bytes = SerdeFactory.model().serializer().serialize(null, model).length;

        assertTrue(bytes <= limit, bytes + " bytes for " + k + " worst-case classes, limit " + limit);
    }

    @Test
    void shouldStopAtFortyFiveClassesOfThreeHundredFeaturesUnderTheDefaultLimit() {
        List<String> features = new ArrayList<>();
        for (int j = 0; j < 300; j++) {
            features.add("x" + j);
        }
        // The stream that crash-looped the trainer: 45 classes at d = 300 made a model over 64 MiB.
        long k = ModelSizeBound.maxClasses(features, TrainingSettings.DEFAULT_MAX_MODEL_BYTES);
        assertTrue(k < 45 && k >= 25, "at most " + k + " classes at d = 300");
    }

    @Test
    void shouldDeadLetterEventsOfClassesBeyondTheSizeBoundAndPublishTheRest() {
        List<String> features = List.of("a", "b", "c", "d");
        // Room for exactly three classes at d = 4.
        long limit = ModelSizeBound.HEADER_BYTES + 40 + 3 * ModelSizeBound.classBytes(4) + 10;
        assertEquals(3, ModelSizeBound.maxClasses(features, limit));
        Topics topics = Topics.defaults();
        TrainingSettings settings = TrainingSettings.defaults(topics).withModelId("m")
                .withPublishInterval(Duration.ofSeconds(1)).withMaxModelBytes(limit);
        try (TopologyTestDriver driver = TrainingFixtures.trainingDriver(settings, stateDir, "size-test", null,
                StreamsConfig.EXACTLY_ONCE_V2)) {
            TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, topics.labelled());
            var models = DriverTopics.output(driver, topics.model());
            var deadLetters = DriverTopics.output(driver, topics.deadLetters());
            Random random = new Random(SEED);
            String[] labels = {"k1", "k2", "k3", "k4", "k5"};
            int[] sent = new int[labels.length];
            for (int i = 0; i < 100; i++) {
                int c = i % labels.length;
                double[] x = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
                labelled.pipeInput(("e" + i).getBytes(StandardCharsets.UTF_8), labelledJson(features, x, labels[c]));
                sent[c]++;
            }
            driver.advanceWallClockTime(Duration.ofSeconds(2));

            List<ModelParameters> published = models.readValuesToList();
            ModelParameters last = published.get(published.size() - 1);
            assertEquals(List.of("k1", "k2", "k3"), last.classes().stream().map(ClassParameters::label).toList());
            assertEquals(sent[0] + sent[1] + sent[2], last.totalCount());
            List<DeadLetter> letters = deadLetters.readValuesToList();
            assertEquals(sent[3] + sent[4], letters.size(), "every event of k4 and k5 is dead-lettered");
            for (DeadLetter letter : letters) {
                assertTrue(letter.reason().startsWith("model size limit: label 'k"), letter.reason());
                assertTrue(letter.reason().contains("more than 3 classes could exceed the record limit of " + limit),
                        letter.reason());
            }
            for (ModelParameters model : published) {
                assertTrue(SerdeFactory.model().serializer().serialize(null, model).length <= limit);
            }
        }
    }
}
