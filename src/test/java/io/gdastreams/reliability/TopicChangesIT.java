package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.restoreTestConfig;
import static io.gdastreams.reliability.TrainingRuns.startAndTrain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topics changed under a running {@code train}, which Kafka Streams does not recover from: restarting it only repeats
 * the failure (an audit saw it loop for minutes, and a deleted model topic made its global consumer log thousands of
 * warnings a second). The service ends with exit code 1 and one line that names the topic and what to do.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TopicChangesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int N = 40;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private record Run(Topics topics, Map<String, String> config) {
    }

    private Run run(KafkaBroker broker, String name) {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> config = restoreTestConfig(broker, topics, KafkaBroker.uniqueName(name),
                dir.resolve(name));
        // The clients see a topic's new partitions at their next metadata refresh (5 min by default).
        config.put("metadata.max.age.ms", "1000");
        return new Run(topics, config);
    }

    /** A change to the topics of a running trainer, made through the broker's admin client. */
    @FunctionalInterface
    private interface Change {
        void make(Topics topics) throws Exception;
    }

    /**
     * Trains on {@link #N} events, makes {@code change}, and returns what {@code train} printed once it ended by
     * itself, with exit code 1, within {@link #TIMEOUT}.
     */
    private String trainThenChange(KafkaBroker broker, String name, Change change) throws Exception {
        Run run = run(broker, name);
        try (ProductProcess train = new ProductProcess(Command.TRAIN, run.config(), dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            startAndTrain(train, broker, producer, run.topics(), Iris.rows(), N, TIMEOUT);
            change.make(run.topics());
            int status = train.awaitOwnExit(TIMEOUT);
            assertEquals(ExitCodes.FAILURE, status, train.tails(40));
            return train.log();
        }
    }

    @Test
    void shouldEndNamingTheFixWhenTheLabelledTopicGetsMorePartitions(KafkaBroker broker) throws Exception {
        String log = trainThenChange(broker, "repartitioned", topics -> broker.admin().createPartitions(Map.of(
                topics.labelled().name(), NewPartitions.increaseTo(2))).all().get(TIMEOUT.toSeconds(),
                TimeUnit.SECONDS));
        assertTrue(log.contains("training: Kafka Streams cannot go on: StreamsException: Existing internal topic "),
                log);
        assertTrue(log.contains("has invalid partitions: expected: 2; actual: 1. An input topic's partitions were"
                + " changed: Kafka Streams keeps one task per input partition and cannot repartition its state. Stop"
                + " every instance, reset the application (`gda-streams reset --role training --execute`) and start"
                + " it again"), log);
        // Kafka's own error line names a tool the product does not ship; the service's last line does not.
        String last = log.strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("gda-streams train: training: Kafka Streams cannot go on"), last);
        assertFalse(last.contains("StreamsResetter"), last);
    }

    @Test
    void shouldEndNamingTheTopicWhenTheModelTopicIsDeletedWhileItRuns(KafkaBroker broker) throws Exception {
        String[] model = new String[1];
        String log = trainThenChange(broker, "deleted", topics -> {
            model[0] = topics.model().name();
            broker.admin().deleteTopics(List.of(model[0])).all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        });
        assertTrue(log.contains("training: topic " + model[0] + " does not exist (while it ran): create it (or set"
                + " gda.create.topics=true) and start the service again"), log);
    }

    @Test
    void shouldEndAtOnceWhenAnInputTopicIsMissingAndItMayNotCreateIt(KafkaBroker broker) throws Exception {
        Run run = run(broker, "missing");
        broker.createTopics(Map.of(run.topics().model().name(), 1, run.topics().deadLetters().name(), 1));
        Map<String, String> config = new java.util.LinkedHashMap<>(run.config());
        config.put("gda.create.topics", "false");
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train")) {
            train.start();
            int status = train.awaitOwnExit(TIMEOUT);
            assertEquals(ExitCodes.FAILURE, status, train.tails(40));
            assertTrue(train.log().contains("training: topic " + run.topics().labelled().name() + " does not exist (at"
                    + " start, with gda.create.topics=false)"), train.tails(40));
        }
    }
}
