package io.gdastreams.reliability;

import static io.gdastreams.reliability.DeadLetterChecks.assertDeadLetterOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.Prediction.Status;
import io.gdastreams.reliability.HostileRecords.Hostile;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
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

    /** The production scoring topology with the Iris model in force. */
    private final class Driver extends HostileInputDriver {

        Driver() {
            super("scoring-hostile", ScoringTopology.build(ScoringSettings.defaults(MODEL_ID)), stateDir,
                    TOPICS.unlabelled(), TOPICS.deadLetters());
            TestInputTopic<String, byte[]> models = driver.createInputTopic(TOPICS.model(),
                    SerdeFactory.string().serializer(), SerdeFactory.rawBytes().serializer());
            models.pipeInput(MODEL_ID, SerdeFactory.model().serializer().serialize(TOPICS.model(),
                    Iris.model(MODEL_ID, 1, Iris.rows())));
        }

        List<Prediction> predictions() {
            return read(TOPICS.predictions(), SerdeFactory.prediction().deserializer());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void shouldAnswerAndDeadLetterEachHostileKindWithItsReasonAndKeepScoring(Hostile hostile) {
        LabelledRow row = Iris.rows().get(0);
        try (Driver d = new Driver()) {
            d.send("before".getBytes(), HostileRecords.validEvent(row.x(), row.label()));
            long offset = d.send(hostile.key(), hostile.value());
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
                assertDeadLetterOf(hostile, hostile.unlabelled().reasonFragment(), dead.get(0), TOPICS.unlabelled(),
                        0, offset);
            } else {
                assertEquals(Status.SCORED, out.get(1).status(), hostile.kind() + " is a valid unlabelled event");
                assertEquals(0, dead.size());
            }
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
                    d.send(hostile.key(), hostile.value());
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
