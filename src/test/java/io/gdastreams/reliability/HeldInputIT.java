package io.gdastreams.reliability;

import static io.gdastreams.reliability.TrainingRuns.RESTORE_MODEL;
import static io.gdastreams.reliability.TrainingRuns.counts;
import static io.gdastreams.reliability.TrainingRuns.modelOf;
import static io.gdastreams.reliability.TrainingRuns.restoreTestConfig;
import static io.gdastreams.reliability.TrainingRuns.send;
import static io.gdastreams.reliability.TrainingRuns.startAndTrain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.it.Await;
import io.gdastreams.it.HangingTransaction;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.ops.OpsHttp;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.topology.Topics;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hanging transaction on the trainer's input (a producer's, which no coordinator will end) holds every event behind
 * it from an exactly-once trainer, silently as far as Kafka is concerned. The trainer names it, with the command
 * that ends it, and leaves it to its writer; once it is aborted, the trainer trains on, and the model holds exactly
 * the events sent (the aborted one dropped, as an aborted transaction's records are).
 */
@ExtendWith(KafkaBrokerExtension.class)
class HeldInputIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int N = 70;
    private static final int L = 40;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldNameAHangingTransactionThatHoldsItsInputAndTrainOnOnceItIsEnded(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        String appId = KafkaBroker.uniqueName("held-input");
        List<LabelledRow> rows = Iris.rows();
        Map<String, String> config = restoreTestConfig(broker, topics, appId, dir.resolve("state"));
        TopicPartition input = new TopicPartition(topics.labelled().name(), 0);
        try (ProductProcess train = new ProductProcess(Command.TRAIN, config, dir, "train");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            startAndTrain(train, broker, producer, topics, rows, N, TIMEOUT);

            // An event in a transaction that hangs at offset N, then L events behind it.
            HangingTransaction.Left left = HangingTransaction.leave(broker, input, List.<byte[][]>of(new byte[][] {
                    "held".getBytes(StandardCharsets.UTF_8),
                    HostileRecords.validEvent(rows.get(N).x(), rows.get(N).label())}));
            assertEquals(N, left.startOffset());
            send(producer, topics, rows, N, L);

            String named = "training: input partition " + input + " has stood at its last stable offset " + N
                    + " for ";
            Await.until("the trainer names what holds its input", TIMEOUT, () -> train.log().contains(named),
                    () -> train.tails(40));
            String log = train.log();
            assertTrue(log.contains(", short of its end offset " + (N + 1 + L) + ": an exactly-once application reads"
                    + " no further. A transaction open since offset " + N + " holds it (producer " + left.producerId()
                    + ", epoch " + left.producerEpoch() + ", last write 0 min ago). It is hanging: its coordinator has"
                    + " moved on (transactional id " + left.transactionalId() + " is Empty at epoch "
                    + left.producerEpoch() + ", without this partition), so nothing but an abort will end it. It is"
                    + " its writer's to end, not this service's: `kafka-transactions.sh --bootstrap-server "
                    + broker.bootstrapServers() + " abort --topic " + input.topic() + " --partition 0 --start-offset "
                    + N + "` ends it"), train.tails(40));

            // The same on the endpoint: /health/ready lists it (and stays ready), the gauge counts it.
            OpsHttp http = OpsHttp.fromLog(train.log());
            HttpResponse<byte[]> readyAnswer = http.get("/health/ready");
            String ready = OpsHttp.text(readyAnswer);
            assertEquals(200, readyAnswer.statusCode(), ready);
            assertTrue(ready.contains("\"heldInputs\":[{\"partition\":\"" + input + "\",\"lastStableOffset\":" + N
                    + ",\"endOffset\":" + (N + 1 + L) + ",\"held\":\"training: input partition " + input), ready);
            assertEquals(1.0, http.gauge("gda_inputs_held"), ready);

            // Its writer ends it (as the named command does): the L events are trained on; the held one is dropped.
            broker.admin().abortTransaction(new AbortTransactionSpec(input, left.producerId(), left.producerEpoch(),
                    0)).all().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            ModelParameters last = modelOf(broker, topics, N + L, TIMEOUT);
            assertEquals(counts(Iris.model(RESTORE_MODEL, last.version(), rows.subList(0, N + L), last.features())),
                    counts(last));
            // The lineage's next offset: past the last event (N + L), before the abort marker at N + L + 1.
            assertEquals(Map.of("0", (long) N + L + 1), last.sources());
            Await.until("the held input is cleared at the next check", TIMEOUT,
                    () -> gauge(http, "gda_inputs_held") == 0.0, () -> train.tails(20));
            assertEquals(ProductProcess.SIGTERM_EXIT, train.sigterm().status(), train.log());
        }
    }

    private static double gauge(OpsHttp http, String name) {
        try {
            return http.gauge(name);
        } catch (Exception e) {
            return Double.NaN;
        }
    }

}
