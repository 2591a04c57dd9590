package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.ModelSerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signed models on the trainer: every published record carries a valid signature of its exact bytes, and a forged
 * record on the model topic (the right key id, a higher version, a wrong HMAC) is never adopted: the trainer
 * publishes its own signed model over it.
 */
class TrainingSigningTest {

    private static final String KEYS = "k2026:correct-horse-battery-staple-2026";
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Topics TOPICS = Topics.defaults();
    /** The forged record's version: far above anything the trainer publishes in this test. */
    private static final long FORGED_VERSION = 1000;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private TestOutputTopic<String, byte[]> start() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("iris").withPublishInterval(INTERVAL)
                .withSigning(ModelSigning.parse(KEYS));
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "training-signing-test",
                TrainingFixtures.DRIVER_START);
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        int i = 0;
        for (LabelledRow row : Iris.rows()) {
            labelled.pipeInput(("row-" + i++).getBytes(StandardCharsets.UTF_8),
                    labelledJson(Iris.FEATURES, row.x(), row.label()));
        }
        driver.advanceWallClockTime(INTERVAL);
        return DriverTopics.output(driver, TOPICS.modelRecords());
    }

    private static void assertSigned(TestRecord<String, byte[]> record) {
        assertNull(ModelSigning.parse(KEYS).refusal(record.value(), record.headers()), "a valid signature");
    }

    @Test
    void everyPublishedModelIsSignedOverItsExactBytes() {
        List<TestRecord<String, byte[]>> published = start().readRecordsToList();
        assertFalse(published.isEmpty(), "a model was published");
        published.forEach(TrainingSigningTest::assertSigned);
        TestRecord<String, byte[]> last = published.get(published.size() - 1);
        String expected = "k2026:" + Base64.getEncoder().encodeToString(ModelSigning.hmac(
                "correct-horse-battery-staple-2026".getBytes(StandardCharsets.UTF_8), last.value()));
        assertEquals(expected, new String(last.headers().lastHeader(ModelSigning.HEADER).value(),
                StandardCharsets.US_ASCII));
    }

    @Test
    void forgedRecordIsNotAdoptedAndTheTrainerPublishesItsOwnSignedModelOverIt() {
        TestOutputTopic<String, byte[]> models = start();
        List<TestRecord<String, byte[]>> before = models.readRecordsToList();
        ModelParameters own = ModelSerde.read(before.get(before.size() - 1).value());

        ModelParameters forgedModel = new ModelParameters(own.modelId(), FORGED_VERSION, own.features(),
                own.totalCount(), own.classes(), own.sources(), own.updatedAt());
        byte[] forged = TOPICS.model().valueBytes(forgedModel);
        RecordHeaders wrong = new RecordHeaders();
        wrong.add(ModelSigning.HEADER, ("k2026:" + Base64.getEncoder().encodeToString(ModelSigning.hmac(
                "attacker-guess-of-the-secret!!".getBytes(StandardCharsets.UTF_8), forged)))
                .getBytes(StandardCharsets.US_ASCII));
        TestInputTopic<String, byte[]> attacker = DriverTopics.input(driver, TOPICS.modelRecords());
        attacker.pipeInput(new TestRecord<>("iris", forged, wrong));
        for (int i = 0; i < 3; i++) {
            driver.advanceWallClockTime(INTERVAL);
        }

        List<TestRecord<String, byte[]>> after = models.readRecordsToList();
        // The attacker's record shows up on the output side too (same topic); the trainer's own come after it.
        List<TestRecord<String, byte[]>> ownRecords = after.stream()
                .filter(r -> ModelSigning.parse(KEYS).refusal(r.value(), r.headers()) == null).toList();
        assertFalse(ownRecords.isEmpty(), "the trainer published its own model over the forged record");
        ModelParameters republished = ModelSerde.read(ownRecords.get(ownRecords.size() - 1).value());
        assertEquals(own.version() + 1, republished.version(),
                "it continues from its own version, not from the forged " + FORGED_VERSION);
        assertEquals(own.totalCount(), republished.totalCount());
        assertTrue(republished.version() < FORGED_VERSION);
    }
}
