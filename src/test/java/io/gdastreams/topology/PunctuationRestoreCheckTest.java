package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.DriverTopics;
import io.gdastreams.model.ModelParameters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A training task whose first use of its state is the publish tick (no record came since it started): the state
 * must be checked against the group's committed offset of the labelled topic ({@link RestoreCheck}) as before a
 * record. A tick has no source topic of its own (Kafka Streams gives a punctuation a record context without one,
 * a bare processor context may give none at all): the check must still ask about the labelled topic, else a stale
 * store would be sent to the combiner as the partition's state.
 */
class PunctuationRestoreCheckTest {

    private static final Topics TOPICS = Topics.defaults();
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    /** The group's committed offset on partition 0 of the labelled topic; an empty store reaches offset 0. */
    private static final long COMMITTED = 3;

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    /** The topics the check asked about. */
    private final List<String> asked = new ArrayList<>();

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    /** A group that committed {@link #COMMITTED} on partition 0 of the labelled topic, with records before it. */
    private final CommittedInput.Source group = configs -> new CommittedInput() {
        @Override
        public OptionalLong committedOffset(String topic, int partition) {
            asked.add(topic);
            return TOPICS.labelled().name().equals(topic) && partition == 0 ? OptionalLong.of(COMMITTED)
                    : OptionalLong.empty();
        }

        @Override
        public boolean hasRecords(String topic, int partition, long from, long to) {
            return from < to;
        }
    };

    private static void assertStale(Throwable thrown) {
        Throwable cause = thrown;
        while (cause != null && !(cause instanceof TrainingStateException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, "a TrainingStateException: " + thrown);
        assertTrue(cause.getMessage().contains(TOPICS.labelled().name() + "-0 reaches offset 0 but the consumer group"
                + " committed offset " + COMMITTED), cause.getMessage());
    }

    @Test
    void theFirstTickOfATopologyTaskChecksItsStateAgainstTheLabelledTopic() {
        TrainingSettings settings = TrainingSettings.defaults(TOPICS).withModelId("m").withPublishInterval(INTERVAL);
        driver = TrainingFixtures.trainingDriver(settings, group,
                TrainingFixtures.driverProperties("punctuation-restore-test", stateDir), TrainingFixtures.DRIVER_START);
        TestOutputTopic<String, ModelParameters> models = DriverTopics.output(driver, TOPICS.model());

        assertStale(assertThrows(RuntimeException.class, () -> driver.advanceWallClockTime(INTERVAL)));
        assertEquals(List.of(TOPICS.labelled().name()), asked);
        assertTrue(models.isEmpty(), "nothing published from the stale state");
    }

    @Test
    void aTickWithoutRecordMetadataChecksTheLabelledTopic() {
        MockProcessorContext<String, TrainingOutput> context = CombinerFixtures.context("punctuation-restore-test",
                new TaskId(0, 0), TrainingTopology.CLASS_STATS_STORE, TrainingTopology.PUBLISHED_STORE);
        PartialStatsProcessor processor = new PartialStatsProcessor(TrainingSettings.defaults(TOPICS)
                .withModelId("m").withPublishInterval(INTERVAL), group);
        processor.init(context);
        long tick = INTERVAL.toMillis();
        context.setCurrentSystemTimeMs(tick);

        assertStale(assertThrows(RuntimeException.class,
                () -> context.scheduledPunctuators().get(0).getPunctuator().punctuate(tick)));
        assertEquals(List.of(TOPICS.labelled().name()), asked);
        assertTrue(context.forwarded().isEmpty(), "no snapshot of the stale state");
    }
}
