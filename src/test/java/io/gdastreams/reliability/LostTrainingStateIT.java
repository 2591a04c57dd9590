package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.deleteRecursively;
import static io.gdastreams.reliability.TrainingRuns.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.broker.FaultInjectionBroker;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product's {@code train} whose state is lost behind its back (its changelog topics deleted and its state
 * directory wiped while it is stopped; its committed input offsets stay) must not publish a model from what is
 * left: it rebuilds its local state from the changelogs (which cannot help here), then stops with the reason.
 * Before the guards it restarted at version 1 with only the events read after the loss, and its lineage still
 * claimed every offset.
 */
class LostTrainingStateIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int PARTITIONS = 2;

    @TempDir
    Path dir;

    @Test
    void shouldStopInsteadOfPublishingAModelFromLostState() throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("lost");
        List<LabelledRow> rows = Iris.rows();
        try (FaultInjectionBroker broker = FaultInjectionBroker.start()) {
            Path stateDir = dir.resolve("state");
            Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris", appId,
                    stateDir, PARTITIONS);
            // A client that stops on lost state cannot leave its group; its restart waits out this session timeout.
            config.put("session.timeout.ms", "10000");
            config.put("heartbeat.interval.ms", "2000");
            try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
                 KafkaProducer<byte[], byte[]> producer = broker.producer()) {
                train.start();
                train.awaitRunning(TIMEOUT);
                send(producer, topics, rows, 0, 120);
                List<ConsumerRecord<String, ModelParameters>> before = broker.readModelsUntilAbsorbed(
                        topics.labelled(), topics.model(), TIMEOUT, () -> assertTrue(train.isAlive(), train.log()));
                ModelParameters published = before.get(before.size() - 1).value();
                assertEquals(120, published.totalCount());
                train.sigterm();

                // The state is lost: changelogs deleted, local state wiped. The input offsets stay committed.
                Set<String> changelogs = broker.admin().listTopics().names().get().stream()
                        .filter(name -> name.startsWith(appId) && name.endsWith("-changelog"))
                        .collect(Collectors.toSet());
                assertEquals(2, changelogs.size(), changelogs.toString());
                broker.admin().deleteTopics(changelogs).all().get();
                long gone = System.nanoTime() + TIMEOUT.toNanos();
                while (broker.admin().listTopics().names().get().stream().anyMatch(changelogs::contains)) {
                    assertTrue(System.nanoTime() < gone, "changelog topics still listed");
                    Thread.sleep(100);
                }
                deleteRecursively(stateDir);

                train.start();
                send(producer, topics, rows, 120, 30);
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (train.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                }
                String log = train.log();
                assertTrue(!train.isAlive(), "train keeps running on lost state:\n" + log);
                assertTrue(log.contains("TrainingStateException") && log.contains("the state was lost"), log);
                assertTrue(log.contains("rebuilding it from the changelog topics (attempt 1 of 1)"),
                        "a full restore from the changelogs is tried before giving up:\n" + log);

                List<ConsumerRecord<String, ModelParameters>> after = broker.readAll(topics.model(), TIMEOUT);
                assertEquals(before.size(), after.size(), "no model published from the lost state");
                ModelParameters last = after.get(after.size() - 1).value();
                assertEquals(published.version(), last.version());
                assertEquals(published.sources(), last.sources());
                assertEquals(published.totalCount(), last.totalCount());
            }
        }
    }
}
