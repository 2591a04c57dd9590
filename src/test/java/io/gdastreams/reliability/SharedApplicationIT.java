package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two trainers configured with different model ids but one application id join one consumer group: each trains on
 * the partitions it is given and publishes half a model, for as long as both run. The one that combines stops once
 * it sees the other's snapshots written while it runs, saying which model and what to do.
 */
@ExtendWith(KafkaBrokerExtension.class)
class SharedApplicationIT {

    /** The margin (30 s) after the combiner's start, a rebalance or two, and the start of both processes. */
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldStopATrainerThatFindsAnotherModelsTrainerInItsApplication(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        String appId = KafkaBroker.uniqueName("shared");
        Map<String, String> first = ProductProcess.testConfig(broker.bootstrapServers(), topics, "m1", appId,
                dir.resolve("first"), 2);
        Map<String, String> second = ProductProcess.testConfig(broker.bootstrapServers(), topics, "m2", appId,
                dir.resolve("second"), 2);
        List<LabelledRow> rows = Iris.rows();
        AtomicBoolean sending = new AtomicBoolean(true);
        try (ProductProcess a = new ProductProcess(Command.TRAIN, first, dir, "train-m1");
             ProductProcess b = new ProductProcess(Command.TRAIN, second, dir, "train-m2");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            a.start();
            a.awaitRunning(TIMEOUT);
            b.start();
            b.awaitRunning(TIMEOUT);
            // Events keep coming to both partitions, so both trainers keep writing snapshots.
            Thread sender = new Thread(() -> {
                for (int i = 0; sending.get(); i++) {
                    LabelledRow row = rows.get(i % rows.size());
                    producer.send(new ProducerRecord<>(topics.labelled().name(), i % 2,
                            ("row-" + i).getBytes(StandardCharsets.UTF_8), HostileRecords.validEvent(row.x(),
                            row.label())));
                    sleep(100);
                }
            }, "events");
            sender.start();
            try {
                Await.until("one trainer stops", TIMEOUT, () -> !a.isAlive() || !b.isAlive(),
                        () -> a.tails(20) + b.tails(20));
            } finally {
                sending.set(false);
                sender.join();
            }
            ProductProcess stopped = a.isAlive() ? b : a;
            ProductProcess running = a.isAlive() ? a : b;
            String other = stopped == a ? "m2" : "m1";
            assertEquals(ExitCodes.FAILURE, stopped.awaitOwnExit(TIMEOUT), stopped.tails(40));
            assertTrue(stopped.log().contains("another trainer runs under application id '" + appId + "-training'"
                    + " with gda.model.id '" + other + "': its partial snapshot was written "), stopped.tails(40));
            assertTrue(stopped.log().contains("one application id trains one model: give each model its own"
                    + " gda.application.id, and stop every instance before changing gda.model.id"), stopped.tails(40));
            running.assertAlive();
            assertEquals(ProductProcess.SIGTERM_EXIT, running.sigterm().status(), running.log());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
