package io.gdastreams.reliability;

import static io.gdastreams.reliability.DeadLetterChecks.assertDeadLetterOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.HostileRecords.Hostile;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingFixtures;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every hostile kind on the labelled topic, through the production training topology in a driver. */
class TrainingHostileInputTest {

    private static final String MODEL_ID = "iris";
    private static final Topics TOPICS = Topics.defaults();
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    @TempDir
    Path stateDir;

    static List<Hostile> catalogue() {
        return HostileRecords.catalogue();
    }

    private final class Driver extends HostileInputDriver {
        final TestOutputTopic<String, byte[]> models;

        Driver() {
            this(TrainingSettings.defaults(TOPICS).withModelId(MODEL_ID).withFeatures(HostileRecords.FEATURES)
                    .withPublishInterval(INTERVAL));
        }

        Driver(TrainingSettings settings) {
            super("training-hostile", TrainingTopology.build(settings, TrainingFixtures.NO_CONSUMER_GROUP), stateDir, TOPICS.labelled().name(),
                    TOPICS.deadLetters().name());
            models = DriverTopics.output(driver, TOPICS.modelRecords());
        }

        ModelParameters lastModel() {
            driver.advanceWallClockTime(INTERVAL);
            List<TestRecord<String, byte[]>> all = models.readRecordsToList();
            assertTrue(!all.isEmpty(), "a model was published");
            byte[] last = all.get(all.size() - 1).value();
            assertTrue(last.length < HostileRecords.BROKER_DEFAULT_MAX_BYTES, "model fits in a record");
            return TOPICS.model().value(last);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void shouldDeadLetterEachHostileKindWithItsReasonAndKeepTraining(Hostile hostile) {
        LabelledRow row = Iris.rows().get(0);
        try (Driver d = new Driver()) {
            d.send("before".getBytes(), HostileRecords.validEvent(row.x(), row.label()));
            long offset = d.send(hostile);
            d.send("after".getBytes(), HostileRecords.validEvent(row.x(), row.label()));

            ModelParameters model = d.lastModel();
            List<DeadLetter> dead = d.deadLetters();
            if (hostile.labelled().deadLettered()) {
                assertEquals(2, model.totalCount(), "both valid events applied around " + hostile.kind());
                assertEquals(1, dead.size(), "dead letters");
                assertDeadLetterOf(hostile, hostile.labelled().reasonFragment(), dead.get(0), TOPICS.labelled().name(), 0,
                        offset);
            } else {
                assertEquals(3, model.totalCount(), hostile.kind() + " is a valid labelled event");
                assertEquals(0, dead.size());
            }
        }
    }

    @Test
    void shouldDeadLetterEventsOfNewLabelsBeyondTheClassBoundAndKeepTrainingKnownOnes() {
        int maxClasses = 3;
        List<LabelledRow> rows = Iris.rows();
        String longest = "L".repeat(256);
        try (Driver d = new Driver(TrainingSettings.defaults(TOPICS).withModelId(MODEL_ID)
                .withFeatures(HostileRecords.FEATURES).withPublishInterval(INTERVAL).withMaxClasses(maxClasses))) {
            LabelledRow first = rows.get(0);
            d.send("a".getBytes(), HostileRecords.validEvent(first.x(), longest));
            d.send("b".getBytes(), HostileRecords.validEvent(first.x(), "setosa"));
            d.send("c".getBytes(), HostileRecords.validEvent(first.x(), "versicolor"));
            int floods = 5;
            long[] offsets = new long[floods];
            for (int i = 0; i < floods; i++) {
                offsets[i] = d.send(("flood-" + i).getBytes(), HostileRecords.validEvent(first.x(), "flood-" + i));
            }
            d.send("d".getBytes(), HostileRecords.validEvent(rows.get(1).x(), "setosa"));
            d.send("e".getBytes(), HostileRecords.validEvent(rows.get(2).x(), longest));

            ModelParameters model = d.lastModel();
            assertEquals(List.of(longest, "setosa", "versicolor"),
                    model.classes().stream().map(c -> c.label()).sorted().toList());
            assertEquals(5, model.totalCount(), "known labels keep training after the bound is reached");
            assertEquals(2, model.classes().stream().filter(c -> c.label().equals("setosa")).findFirst()
                    .orElseThrow().count());
            List<DeadLetter> dead = d.deadLetters();
            assertEquals(floods, dead.size(), "one dead letter per event of a label beyond the bound");
            for (int i = 0; i < floods; i++) {
                assertEquals("too many classes: label 'flood-" + i + "' would be class 4 of partition 0 (at most 3,"
                        + " gda.max.classes)", dead.get(i).reason());
                assertEquals(offsets[i], dead.get(i).offset());
                assertEquals(TOPICS.labelled().name(), dead.get(i).topic());
            }
        }
    }

    /**
     * "a\ud800" and "a\udc00" are distinct Java strings with no UTF-8 form: written into a partial snapshot both
     * became "a?", the combiner found that class twice and refused every snapshot of the partition, so no model
     * was ever published and the partition's events were lost without a dead letter.
     */
    @Test
    void shouldDeadLetterLabelsWithUnpairedSurrogatesSoThatNoSnapshotIsLost() {
        List<LabelledRow> rows = Iris.rows();
        String high = "{\"features\": {\"sepal_length\": 5.0, \"sepal_width\": 3.0, \"petal_length\": 1.5,"
                + " \"petal_width\": 0.2}, \"label\": \"a\\ud800\"}";
        String low = high.replace("\\ud800", "\\udc00");
        try (Driver d = new Driver()) {
            long sent = 0;
            long highAt = -1;
            long lowAt = -1;
            for (int i = 0; i < rows.size(); i++) {
                d.send(("v" + i).getBytes(), HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label()));
                sent++;
                if (i == 10) {
                    highAt = d.send("high".getBytes(), high.getBytes(StandardCharsets.UTF_8));
                    sent++;
                } else if (i == 20) {
                    lowAt = d.send("low".getBytes(), low.getBytes(StandardCharsets.UTF_8));
                    sent++;
                }
            }
            d.send("plain".getBytes(), HostileRecords.validEvent(rows.get(0).x(), "a"));
            sent++;

            ModelParameters model = d.lastModel();
            List<DeadLetter> dead = d.deadLetters();
            assertEquals(2, dead.size(), "dead letters");
            assertEquals("label is not valid Unicode: unpaired surrogate U+D800 at index 1", dead.get(0).reason());
            assertEquals(highAt, dead.get(0).offset());
            assertEquals("label is not valid Unicode: unpaired surrogate U+DC00 at index 1", dead.get(1).reason());
            assertEquals(lowAt, dead.get(1).offset());
            assertEquals(sent, model.totalCount() + dead.size(), "records read = applied + dead-lettered");
            assertEquals(sent, model.sources().get("0"), "the model has absorbed every offset of the partition");
            Map<String, Long> counts = new TreeMap<>();
            model.classes().forEach(c -> counts.put(c.label(), c.count()));
            assertEquals(Map.of("a", 1L, "setosa", 50L, "versicolor", 50L, "virginica", 50L), counts);
        }
    }

    @Test
    void shouldAccountForEveryRecordAndLearnOnlyFromValidOnes() {
        List<LabelledRow> rows = Iris.rows();
        List<Hostile> catalogue = HostileRecords.catalogue();
        long sent = 0;
        long expectedDead = 0;
        try (Driver d = new Driver()) {
            for (int i = 0; i < rows.size(); i++) {
                LabelledRow row = rows.get(i);
                d.send(("v" + i).getBytes(), HostileRecords.validEvent(row.x(), row.label()));
                sent++;
                if (i < catalogue.size() && catalogue.get(i).labelled().deadLettered()) {
                    Hostile hostile = catalogue.get(i);
                    d.send(hostile);
                    sent++;
                    expectedDead++;
                }
            }
            ModelParameters model = d.lastModel();
            long dead = d.deadLetters().size();
            assertEquals(expectedDead, dead, "dead letters");
            assertEquals(sent, model.totalCount() + dead, "in = applied + dead-lettered");
            ModelParameters clean = Iris.model(MODEL_ID, 1, rows);
            for (int k = 0; k < clean.classes().size(); k++) {
                String label = clean.classes().get(k).label();
                var actual = model.classes().stream().filter(c -> c.label().equals(label)).findFirst()
                        .orElseThrow();
                assertEquals(clean.classes().get(k).count(), actual.count(), label);
                for (int j = 0; j < 4; j++) {
                    assertEquals(clean.classes().get(k).mean()[j], actual.mean()[j],
                            1e-12 * Math.abs(clean.classes().get(k).mean()[j]), label + " mean " + j);
                }
            }
            assertTrue(expectedDead >= 25, "at least 25 bad kinds on the labelled topic, got " + expectedDead);
        }
    }
}
