package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.restoreTestConfig;
import static io.gdastreams.reliability.TrainingRuns.startAndTrain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two trainers of one model id under different application ids (a second configuration pointed at the same topics,
 * or a hand-over to a new application id before the old trainer was stopped). An audit saw them publish version 12
 * twice, with two contents, and the model fall from 500 events to 2. The trainer that finds the other's model above
 * its own while it runs stops (exit code 1) and says why; the other goes on.
 */
@ExtendWith(KafkaBrokerExtension.class)
class TwoTrainersIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int N = 40;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldStopATrainerThatFindsAnotherPublishingItsModel(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> first = restoreTestConfig(broker, topics, KafkaBroker.uniqueName("first"),
                dir.resolve("first"));
        String secondId = KafkaBroker.uniqueName("second");
        Map<String, String> second = new LinkedHashMap<>(restoreTestConfig(broker, topics, secondId,
                dir.resolve("second")));
        try (ProductProcess a = new ProductProcess(Command.TRAIN, first, dir, "train-first");
             ProductProcess b = new ProductProcess(Command.TRAIN, second, dir, "train-second");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            startAndTrain(a, broker, producer, topics, Iris.rows(), N, TIMEOUT);

            b.start(); // reads the labelled topic from the beginning and publishes above the first's versions
            assertEquals(ExitCodes.FAILURE, a.awaitOwnExit(TIMEOUT), a.tails(40));
            assertTrue(a.log().contains("also publishes model '" + TrainingRuns.RESTORE_MODEL + "' (version "),
                    a.tails(40));
            assertTrue(a.log().contains("while this one runs: two trainers of one model id would give versions two"
                    + " contents and the model the other's events. This trainer stops; run one trainer per model id"),
                    a.tails(40));
            assertTrue(a.log().contains("application '" + secondId + "-training'"), a.tails(40));
            b.assertAlive();
            assertEquals(ProductProcess.SIGTERM_EXIT, b.sigterm().status(), b.log());
        }
    }
}
