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
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trainer restarted with gda.statistics=full on state kept as diagonal statistics: the state is sound, the
 * configuration cannot read it (the off-diagonal scatter was never kept). It ends at once with the reason and the
 * two ways on; rebuilding the state from the changelogs first (as for a damaged state) would only find the same.
 */
@ExtendWith(KafkaBrokerExtension.class)
class StatisticsChangeIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldEndAtOnceWhenFullStatisticsAreAskedOfADiagonalState(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> diagonal = new LinkedHashMap<>(restoreTestConfig(broker, topics,
                KafkaBroker.uniqueName("statistics"), dir.resolve("state")));
        diagonal.put("gda.statistics", "diagonal");
        diagonal.put("gda.covariance", "diag");
        Map<String, String> full = new LinkedHashMap<>(diagonal);
        full.put("gda.statistics", "full");
        full.put("gda.covariance", "full");
        try (ProductProcess first = new ProductProcess(Command.TRAIN, diagonal, dir, "train-diagonal");
             ProductProcess second = new ProductProcess(Command.TRAIN, full, dir, "train-full");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            startAndTrain(first, broker, producer, topics, Iris.rows(), 30, TIMEOUT);
            assertEquals(ProductProcess.SIGTERM_EXIT, first.sigterm().status(), first.log());

            second.start();
            assertEquals(ExitCodes.FAILURE, second.awaitOwnExit(TIMEOUT), second.tails(40));
            String log = second.log();
            assertTrue(log.contains("has diagonal statistics (gda.statistics=diagonal) but gda.statistics=full: the"
                    + " covariances they never kept cannot be recovered; set gda.statistics=diagonal, or reset the"
                    + " training"), second.tails(40));
            assertFalse(log.contains("rebuilding it from the changelog topics"), second.tails(40));
        }
    }
}
