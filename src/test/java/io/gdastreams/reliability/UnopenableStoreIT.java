package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product's {@code train} on a state directory whose store Kafka Streams cannot open while it starts (found with
 * a full volume: RocksDB could not write its MANIFEST, "No space left on device"; here the store's directory is
 * replaced by a file, which fails the same open): the command ends with the reason in one line, exit 1, instead of
 * an "unexpected error" and a stack trace.
 */
@ExtendWith(KafkaBrokerExtension.class)
class UnopenableStoreIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void shouldEndWithTheReasonInOneLineWhenAStoreCannotBeOpened(KafkaBroker broker) throws Exception {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        String appId = UniqueNames.of("unopenable");
        Path stateDir = dir.resolve("state");
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris", appId,
                stateDir, 1);
        List<LabelledRow> rows = Iris.rows();
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            train.start();
            train.awaitRunning(TIMEOUT);
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>(topics.labelled().name(), ("row-" + i).getBytes(
                        StandardCharsets.UTF_8), HostileRecords.validEvent(rows.get(i).x(), rows.get(i).label())))
                        .get();
            }
            broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), TIMEOUT, train::assertAlive);
            train.sigterm();

            List<Path> stores;
            try (Stream<Path> files = Files.walk(stateDir.resolve(appId + "-training"))) {
                stores = files.filter(p -> p.getParent() != null && p.getParent().getFileName().toString()
                        .equals("rocksdb") && Files.isDirectory(p)).toList();
            }
            assertFalse(stores.isEmpty(), "the trainer's RocksDB stores under " + stateDir);
            for (Path store : stores) {
                try (Stream<Path> files = Files.walk(store)) {
                    for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
                Files.writeString(store, "not a store");
            }

            train.start();
            assertEquals(ExitCodes.FAILURE, train.awaitOwnExit(TIMEOUT), train.log());
            String log = train.log();
            assertTrue(log.contains("gda-streams train: training: Kafka Streams cannot start: "), log);
            assertFalse(log.contains("unexpected error"), log);
            assertFalse(log.contains("\tat org.apache.kafka"), "no stack trace: " + log);
        }
    }
}
