package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.it.Await;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.ops.OpsHttp;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.Json;
import io.gdastreams.topology.Topics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code train} instances of one application, one of them started with {@code gda.forgetting.half-life.ms} set
 * (an operator's slip: docs/RELIABILITY.md, "Instances of one application share one configuration"). The model is
 * held back while they share the partitions, the instance that publishes says why (log, {@code /health/ready},
 * {@code gda_model_held}), and once the odd instance stops, its partitions go to the other and the model of every
 * event is published.
 */
@ExtendWith(KafkaBrokerExtension.class)
class SettingsMismatchIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int PARTITIONS = 4;
    private static final int EVENTS = 120;
    /** Publish intervals (200 ms in tests) the held state is watched for: many rounds in which it could publish. */
    private static final Duration WATCHED = Duration.ofSeconds(3);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldHoldTheModelWhileInstancesRunWithDifferentSettingsAndPublishOnceTheyAgree(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        String application = KafkaBroker.uniqueName("mismatch");
        Map<String, String> same = ProductProcess.testConfig(broker.bootstrapServers(), topics, "mix", application,
                dir.resolve("state-same"), PARTITIONS);
        same.put("gda.features", String.join(",", Iris.FEATURES));
        same.put("gda.http.port", "0");
        Map<String, String> odd = new LinkedHashMap<>(same);
        odd.put("state.dir", dir.resolve("state-odd").toString());
        odd.put("gda.forgetting.half-life.ms", "3600000");
        try (ProductProcess first = new ProductProcess(Command.TRAIN, same, dir, "train-same");
             ProductProcess second = new ProductProcess(Command.TRAIN, odd, dir, "train-odd");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            first.start();
            first.awaitRunning(TIMEOUT);
            second.start();
            second.awaitRunning(TIMEOUT);
            OpsHttp[] endpoints = {OpsHttp.fromLog(first.log()), OpsHttp.fromLog(second.log())};
            assertNotNull(endpoints[0], first.log());
            assertNotNull(endpoints[1], second.log());
            TrainingRuns.send(producer, topics, Iris.rows(), 0, EVENTS);

            // Whichever instance runs the combiner says why it holds the model back, naming the key.
            int[] publisher = {-1};
            Await.until("an instance holds the model back", TIMEOUT, () -> {
                for (int i = 0; i < 2; i++) {
                    if (ready(endpoints[i]).has("modelHeld")) {
                        publisher[0] = i;
                        return true;
                    }
                }
                return false;
            }, () -> first.tails(20) + "\n" + second.tails(20));
            OpsHttp holding = endpoints[publisher[0]];
            String reason = ready(holding).get("modelHeld").asText();
            assertTrue(reason.startsWith("model 'mix' is held back: the instances of application '" + application
                    + "-training' run with different settings (partition"), reason);
            assertTrue(reason.contains("gda.forgetting.half-life.ms=" + (publisher[0] == 0 ? "3600000 (here: none)"
                    : "none (here: 3600000)")), reason);
            assertEquals(1.0, holding.gauge("gda_model_held"));
            assertEquals(0.0, endpoints[1 - publisher[0]].gauge("gda_model_held"), "only the publisher holds");
            assertEquals(200, holding.get("/health/ready").statusCode(), "ready: the trainer runs");
            ProductProcess publishing = publisher[0] == 0 ? first : second;
            assertTrue(publishing.log().contains("WARN") && publishing.log().contains("is held back"),
                    publishing.tails(20));

            // Round after round, no model of events trained under both settings appears.
            Thread.sleep(WATCHED.toMillis());
            assertTrue(ready(holding).has("modelHeld"), "still held: " + ready(holding));
            for (ConsumerRecord<String, ModelParameters> model : broker.readAll(topics.model(), TIMEOUT)) {
                assertTrue(model.value().totalCount() < EVENTS, "no model of every event while held: "
                        + model.value().sources());
            }

            // The odd instance stops: its partitions go to the other, which sends their snapshots under its settings.
            assertEquals(ProductProcess.SIGTERM_EXIT, second.sigterm().status(), second.tails(20));
            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, first::assertAlive);
            assertEquals(EVENTS, models.get(models.size() - 1).value().totalCount());
            Await.until("nothing held any more", TIMEOUT, () -> !ready(endpoints[0]).has("modelHeld"),
                    () -> first.tails(20));
            assertEquals(0.0, endpoints[0].gauge("gda_model_held"));
            assertFalse(first.log().contains("Exception in thread"), first.tails(40));
        }
    }

    private static JsonNode ready(OpsHttp endpoint) {
        try {
            return Json.mapper().readTree(endpoint.get("/health/ready").body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
