package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.math.Forgetting;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event whose record has no valid timestamp (-1, as a client that writes its own batches can send), as the
 * services' consumers pass it on (TimelessRecordInterceptor: restamped, its own timestamp in a header; the driver
 * runs no consumer): the trainer learns from it unless forgetting needs its time (then it is dead-lettered with the
 * reason), and the scorer scores it; its outputs carry the header. Without the interceptor Kafka Streams stopped on
 * the record, at every start (TimelessRecordsIT).
 */
class TimelessEventTopologyTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    /** Means of two small integers: exact, a rounding at most. */
    private static final double CLOSE = 1e-12;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(TrainingSettings settings) {
        driver = TrainingFixtures.trainingDriver(settings, stateDir, "timeless-test", Instant.ofEpochMilli(T0));
    }

    private static String own(Headers headers) {
        return new String(headers.lastHeader(TimelessRecordInterceptor.OWN_TIMESTAMP_HEADER).value(),
                StandardCharsets.US_ASCII);
    }

    private static void send(TestInputTopic<byte[], byte[]> topic, String json, long timestamp, RecordHeaders headers) {
        byte[] value = json.getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<Object, Object> read = TimelessRecordInterceptorTest.asRead(List.of(new ConsumerRecord<>(
                "t", 0, 0, timestamp, TimestampType.CREATE_TIME, 1, value.length, "k".getBytes(StandardCharsets.UTF_8),
                value, headers == null ? new RecordHeaders() : headers, Optional.empty()))).get(0);
        topic.pipeInput(new TestRecord<>((byte[]) read.key(), (byte[]) read.value(), read.headers(),
                Instant.ofEpochMilli(read.timestamp())));
    }

    private static void send(TestInputTopic<byte[], byte[]> labelled, double x, String label, long timestamp,
                             RecordHeaders headers) {
        send(labelled, "{\"features\":{\"x\":" + x + "},\"label\":\"" + label + "\"}", timestamp, headers);
    }

    private ModelParameters lastModel() {
        driver.advanceWallClockTime(INTERVAL);
        List<ModelParameters> all = DriverTopics.output(driver, TOPICS.model()).readValuesToList();
        return all.get(all.size() - 1);
    }

    @Test
    void shouldLearnFromAnEventWithoutTimestampWhenNoForgettingNeedsIt() {
        start(TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL));
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<byte[], DeadLetter> deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
        send(labelled, 1, "a", T0, null);
        send(labelled, 3, "a", -1, null);

        ModelParameters model = lastModel();
        assertEquals(List.of(), deadLetters.readValuesToList());
        assertEquals(2, model.totalCount());
        assertArrayEquals(new double[] {2}, model.classes().get(0).mean(), CLOSE);
    }

    @Test
    void shouldDeadLetterAnEventWithoutTimestampThatForgettingWouldWeigh() {
        start(TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL)
                .withForgetting(new Forgetting(1000)));
        TestInputTopic<byte[], byte[]> labelled = DriverTopics.input(driver, TOPICS.labelled());
        TestOutputTopic<byte[], DeadLetter> deadLetters = DriverTopics.output(driver, TOPICS.deadLetters());
        send(labelled, 1, "a", T0, null);
        send(labelled, 3, "a", -1, null);
        // A valid time with a header of that name that is no time: not read as one.
        RecordHeaders forged = new RecordHeaders();
        forged.add(TimelessRecordInterceptor.OWN_TIMESTAMP_HEADER, "later".getBytes(StandardCharsets.US_ASCII));
        send(labelled, 5, "a", T0, forged);

        List<TestRecord<byte[], DeadLetter>> letters = deadLetters.readRecordsToList();
        assertEquals(1, letters.size());
        DeadLetter letter = letters.get(0).value();
        assertEquals("no event time: the record timestamp is -1 but " + ConfigKey.FORGETTING_HALF_LIFE_MS.key()
                + " weighs events by it", letter.reason());
        assertEquals(List.of(TOPICS.labelled().name(), 0, 1L),
                List.of(letter.topic(), letter.partition(), letter.offset()));
        assertEquals("-1", own(letters.get(0).headers()), "the dead letter says what the timestamp was");
        ModelParameters model = lastModel();
        assertEquals(2, model.totalCount(), "x = 1 and x = 5, both at T0");
        assertArrayEquals(new double[] {3}, model.classes().get(0).mean(), CLOSE);
    }

    @Test
    void shouldScoreAnEventWithoutTimestampAndSaySoInItsPredictionsHeaders() {
        try (ScoringHarness harness = new ScoringHarness(ScoringSettings.defaults(ScoringFixtures.MODEL_ID),
                stateDir)) {
            // (A model record without timestamp fails inside the driver's global store before any extractor: the
            // services' consumers restamp it, TimelessRecordInterceptor; TimelessRecordsIT shows it on a broker.)
            harness.publish(ScoringFixtures.irisModel(1));
            send(harness.events(), "{\"features\":{\"sepal_length\":5.0,\"sepal_width\":3.4,\"petal_length\":1.5,"
                    + "\"petal_width\":0.2}}", -1, null);
            var records = harness.predictionRecords();
            assertEquals(1, records.size());
            assertEquals(Prediction.Status.SCORED, records.get(0).value().status(), records.get(0).value().reason());
            assertEquals("setosa", records.get(0).value().label());
            assertEquals("-1", own(records.get(0).headers()));
        }
    }
}
