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
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
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

    /** The driver with the Iris model in force; outputs read as raw bytes so their size can be checked. */
    private final class Driver implements AutoCloseable {
        final TopologyTestDriver driver;
        final TestInputTopic<byte[], byte[]> events;
        final TestOutputTopic<byte[], byte[]> predictions;
        final TestOutputTopic<byte[], byte[]> deadLetters;
        long nextOffset;

        Driver() {
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "scoring-hostile");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
            props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
            driver = new TopologyTestDriver(ScoringTopology.build(ScoringSettings.defaults(MODEL_ID)), props);
            TestInputTopic<String, byte[]> models = driver.createInputTopic(TOPICS.model(),
                    SerdeFactory.string().serializer(), SerdeFactory.rawBytes().serializer());
            models.pipeInput(MODEL_ID, SerdeFactory.model().serializer().serialize(TOPICS.model(),
                    Iris.model(MODEL_ID, 1, Iris.rows())));
            events = driver.createInputTopic(TOPICS.unlabelled(), SerdeFactory.rawBytes().serializer(),
                    SerdeFactory.rawBytes().serializer());
            predictions = driver.createOutputTopic(TOPICS.predictions(), SerdeFactory.rawBytes().deserializer(),
                    SerdeFactory.rawBytes().deserializer());
            deadLetters = driver.createOutputTopic(TOPICS.deadLetters(), SerdeFactory.rawBytes().deserializer(),
                    SerdeFactory.rawBytes().deserializer());
        }

        long send(byte[] key, byte[] value) {
            events.pipeInput(key, value);
            return nextOffset++;
        }

        List<Prediction> predictions() {
            return predictions.readRecordsToList().stream()
                    .map(r -> SerdeFactory.prediction().deserializer().deserialize("p", fits(r))).toList();
        }

        List<DeadLetter> deadLetters() {
            return deadLetters.readRecordsToList().stream()
                    .map(r -> SerdeFactory.deadLetter().deserializer().deserialize("d", fits(r))).toList();
        }

        @Override
        public void close() {
            driver.close();
        }
    }

    /** An output the broker would refuse would stop the application, so every output must fit. */
    private static byte[] fits(TestRecord<byte[], byte[]> record) {
        int size = (record.key() == null ? 0 : record.key().length) + record.value().length;
        assertTrue(size < HostileRecords.BROKER_DEFAULT_MAX_BYTES, "output of " + size + " bytes exceeds the limit");
        return record.value();
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
