package io.gdastreams.reliability;

import static io.gdastreams.reliability.DeadLetterChecks.assertDeadLetterOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.reliability.HostileRecords.Hostile;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every hostile kind on the unlabelled topic, through the production scoring topology in a driver. */
class ScoringHostileInputTest {

    private static final String MODEL_ID = "iris";
    private static final Topics TOPICS = Topics.defaults();

    @TempDir
    Path stateDir;

    static List<Hostile> catalogue() {
        return HostileRecords.catalogue();
    }

    /** The production scoring topology, with the Iris model in force unless told otherwise. */
    private final class Driver extends HostileInputDriver {

        final TestInputTopic<String, byte[]> models;

        Driver() {
            this(true);
        }

        Driver(boolean withModel) {
            super("scoring-hostile", ScoringTopology.build(ScoringSettings.defaults(MODEL_ID)), stateDir,
                    TOPICS.unlabelled().name(), TOPICS.deadLetters().name());
            models = DriverTopics.input(driver, TOPICS.modelRecords());
            if (withModel) {
                publishModel();
            }
        }

        void publishModel() {
            models.pipeInput(MODEL_ID, TOPICS.model().valueBytes(Iris.model(MODEL_ID, 1, Iris.rows())));
        }

        List<Prediction> predictions() {
            return read(TOPICS.predictions().name(), SerdeFactory.prediction().deserializer());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void shouldAnswerAndDeadLetterEachHostileKindWithItsReasonAndKeepScoring(Hostile hostile) {
        LabelledRow row = Iris.rows().get(0);
        try (Driver d = new Driver()) {
            d.send("before".getBytes(), HostileRecords.validEvent(row.x(), row.label()));
            long offset = d.send(hostile);
            d.send("after".getBytes(), HostileRecords.validEvent(row.x(), row.label()));

            List<Prediction> out = d.predictions();
            assertEquals(3, out.size(), "one answer per event");
            assertEquals(Status.SCORED, out.get(0).status());
            assertEquals(Status.SCORED, out.get(2).status(), "the topology keeps scoring after " + hostile.kind());
            List<DeadLetter> dead = d.deadLetters();
            if (hostile.unlabelled().deadLettered()) {
                assertEquals(Status.UNSCORED, out.get(1).status());
                assertTrue(out.get(1).reason().contains(hostile.unlabelled().reasonFragment()),
                        DeadLetterChecks.abbreviate(out.get(1).reason()));
                assertEquals(1, dead.size(), "dead letters");
                assertDeadLetterOf(hostile, hostile.unlabelled().reasonFragment(), dead.get(0), TOPICS.unlabelled().name(),
                        0, offset);
            } else {
                assertEquals(Status.SCORED, out.get(1).status(), hostile.kind() + " is a valid unlabelled event");
                assertEquals(0, dead.size());
            }
        }
    }

    /** The kinds small enough to be held while no model exists (larger ones are answered "no model yet"). */
    static List<Hostile> holdable() {
        return HostileRecords.catalogue().stream().filter(h -> h.value() == null || h.value().length <= 512 * 1024)
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("holdable")
    void shouldDeadLetterHeldEventsThatTurnOutUnscorableWithTheirSourceAndBytes(Hostile hostile) {
        LabelledRow row = Iris.rows().get(0);
        try (Driver d = new Driver(false)) {
            d.send("before".getBytes(), HostileRecords.validEvent(row.x(), row.label()));
            long offset = d.send(hostile);
            d.send("after".getBytes(), HostileRecords.validEvent(row.x(), row.label()));
            d.publishModel();
            d.driver.advanceWallClockTime(ScoringSettings.DEFAULT_PENDING_CHECK_INTERVAL);

            // Unreadable events are answered at once, readable ones when the model arrives: order may differ.
            List<Prediction> out = d.predictions();
            assertEquals(3, out.size(), "one answer per event, held or not");
            List<Prediction> unscored = out.stream().filter(p -> p.status() == Status.UNSCORED).toList();
            List<DeadLetter> dead = d.deadLetters();
            if (hostile.unlabelled().deadLettered()) {
                assertEquals(1, unscored.size(), "only the hostile event is unscored");
                assertTrue(unscored.get(0).reason().contains(hostile.unlabelled().reasonFragment()),
                        DeadLetterChecks.abbreviate(unscored.get(0).reason()));
                assertEquals(1, dead.size(), "dead letters");
                assertDeadLetterOf(hostile, hostile.unlabelled().reasonFragment(), dead.get(0), TOPICS.unlabelled().name(),
                        0, offset);
            } else {
                assertEquals(0, unscored.size(), hostile.kind() + " is a valid unlabelled event");
                assertEquals(0, dead.size());
            }
        }
    }

    @Test
    void shouldReadAndReleaseHeldEntriesOfTheOlderFormWithoutSource() {
        byte[] oldForm = ("{\"key\": \"b2xk\", \"id\": \"old\", \"features\": {\"colour\": 1.0},"
                + " \"timestamp\": 42}").getBytes(StandardCharsets.UTF_8);
        PendingEvent held = SerdeFactory.pendingEvent().deserializer().deserialize("changelog", oldForm);
        assertEquals(new String(held.key()), "old");
        assertEquals(Map.of("colour", 1.0), held.features());
        assertEquals(null, held.topic());
        assertEquals(null, held.value());
        assertEquals(null, held.headers(), "entries from before headers were kept have none");
        try (Driver d = new Driver(false)) {
            KeyValueStore<byte[], byte[]> store = d.driver.getKeyValueStore(ScoringTopology.PENDING_STORE);
            // As restored from a changelog written by an earlier version, next to an event held by this one.
            store.put(SerdeFactory.sequence().serializer().serialize("changelog", 1_000L), oldForm);
            LabelledRow row = Iris.rows().get(0);
            d.send("new".getBytes(), HostileRecords.validEvent(row.x(), row.label()));
            d.publishModel();
            d.driver.advanceWallClockTime(ScoringSettings.DEFAULT_PENDING_CHECK_INTERVAL);
            List<Prediction> out = d.predictions();
            assertEquals(2, out.size());
            assertEquals(Status.SCORED, out.get(0).status());
            assertEquals("old", out.get(1).id());
            assertEquals("unknown feature(s): colour", out.get(1).reason());
            List<DeadLetter> dead = d.deadLetters();
            assertEquals(1, dead.size());
            assertTrue(dead.get(0).reason().startsWith("unknown feature(s): colour (held before the scorer kept"),
                    dead.get(0).reason());
            assertEquals(null, dead.get(0).topic());
            assertEquals(-1L, dead.get(0).offset());
            assertEquals("b2xk", dead.get(0).keyBase64());
        }
    }

    @Test
    void shouldAccountForEveryRecordWhenTheWholeCatalogueIsInterleavedWithValidEvents() {
        List<LabelledRow> rows = Iris.rows();
        List<Hostile> catalogue = HostileRecords.catalogue();
        long sent = 0;
        long expectedDead = 0;
        try (Driver d = new Driver()) {
            for (int i = 0; i < rows.size(); i++) {
                LabelledRow row = rows.get(i);
                d.send(("v" + i).getBytes(), HostileRecords.validEvent(row.x(), row.label()));
                sent++;
                if (i < catalogue.size()) {
                    Hostile hostile = catalogue.get(i);
                    d.send(hostile);
                    sent++;
                    expectedDead += hostile.unlabelled().deadLettered() ? 1 : 0;
                }
            }
            List<Prediction> out = d.predictions();
            long scored = out.stream().filter(p -> p.status() == Status.SCORED).count();
            long dead = d.deadLetters().size();
            assertTrue(catalogue.size() <= rows.size(), "every kind is sent");
            assertEquals(sent, out.size(), "one answer per event");
            assertEquals(expectedDead, dead, "dead letters");
            assertEquals(sent, scored + dead, "in = scored + dead-lettered");
            assertTrue(expectedDead >= 25, "at least 25 bad kinds on the unlabelled topic, got " + expectedDead);
        }
    }
}
