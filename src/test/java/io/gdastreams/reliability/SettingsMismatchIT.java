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
 * Three {@code train} instances of one application, one of them started with {@code gda.forgetting.half-life.ms}
 * set (an operator's slip: docs/RELIABILITY.md, "Instances of one application share one configuration"). The model
 * is held back while they share the partitions, the instance that publishes says why (log, {@code /health/ready},
 * {@code gda_model_held}); when that instance stops, the combiner's new home holds it too (the odd partitions are
 * quiet: only the combiner's store knows who trains them); once the odd instance stops, its partitions go to an
 * instance configured as the others and the model of every event is published.
 */
@ExtendWith(KafkaBrokerExtension.class)
class SettingsMismatchIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int PARTITIONS = 4;
    private static final int EVENTS = 120;
    /** Publish intervals (200 ms in tests) the held state is watched for: many rounds in which it could publish. */
    private static final Duration WATCHED = Duration.ofSeconds(3);
    /** How long the group is given to settle after an instance joined or left, before the watch. */
    private static final Duration SETTLE = Duration.ofSeconds(3);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldHoldTheModelWhileInstancesRunWithDifferentSettingsAndPublishOnceTheyAgree(KafkaBroker broker)
            throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        String application = KafkaBroker.uniqueName("mismatch");
        Map<String, String> same = ProductProcess.testConfig(broker.bootstrapServers(), topics, "mix", application,
                dir.resolve("state-first"), PARTITIONS);
        same.put("gda.features", String.join(",", Iris.FEATURES));
        same.put("gda.http.port", "0");
        Map<String, String> third = new LinkedHashMap<>(same);
        third.put("state.dir", dir.resolve("state-third").toString());
        Map<String, String> odd = new LinkedHashMap<>(same);
        odd.put("state.dir", dir.resolve("state-odd").toString());
        odd.put("gda.forgetting.half-life.ms", "3600000");
        try (ProductProcess first = new ProductProcess(Command.TRAIN, same, dir, "train-first");
             ProductProcess oddOne = new ProductProcess(Command.TRAIN, odd, dir, "train-odd");
             ProductProcess thirdOne = new ProductProcess(Command.TRAIN, third, dir, "train-third");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            // The first starts alone and takes the combiner; the two others join and share the partitions.
            List<ProductProcess> trainers = List.of(first, oddOne, thirdOne);
            for (ProductProcess trainer : trainers) {
                trainer.start();
                trainer.awaitRunning(TIMEOUT);
            }
            List<OpsHttp> endpoints = trainers.stream().map(t -> OpsHttp.fromLog(t.log())).toList();
            endpoints.forEach(e -> assertNotNull(e, "every trainer printed its endpoint"));
            TrainingRuns.send(producer, topics, Iris.rows(), 0, EVENTS);

            int publisher = assertNoVersionWhileHeld(broker, topics, trainers, endpoints);
            String reason = ready(endpoints.get(publisher)).get("modelHeld").asText();
            assertTrue(reason.startsWith("model 'mix' is held back: the instances of application '" + application
                    + "-training' run with different settings (partition"), reason);
            assertTrue(reason.contains("gda.forgetting.half-life.ms=" + (publisher != 1 ? "3600000 (here: none)"
                    : "none (here: 3600000)")), reason);
            for (int i = 0; i < trainers.size(); i++) {
                assertEquals(i == publisher ? 1.0 : 0.0, endpoints.get(i).gauge("gda_model_held"), "trainer " + i);
            }
            assertEquals(200, endpoints.get(publisher).get("/health/ready").statusCode(), "ready: the trainer runs");
            assertTrue(trainers.get(publisher).log().contains("is held back"), trainers.get(publisher).tails(20));

            if (publisher != 1) {
                // The combiner moves (its instance stops) while the odd instance's partitions are quiet: the new
                // combiner knows from its store who trains them, and holds the model as well.
                assertEquals(ProductProcess.SIGTERM_EXIT, trainers.get(publisher).sigterm().status());
                int next = assertNoVersionWhileHeld(broker, topics, trainers, endpoints);
                assertTrue(ready(endpoints.get(next)).get("modelHeld").asText().contains(
                        "gda.forgetting.half-life.ms="), trainers.get(next).tails(20));
            }

            // The odd instance stops: its partitions go to an instance configured as the others, whose first
            // snapshots end the hold, and the model of every event is published.
            assertEquals(ProductProcess.SIGTERM_EXIT, oddOne.sigterm().status(), oddOne.tails(20));
            ProductProcess survivor = publisher == 0 ? thirdOne : first;
            OpsHttp survivorEndpoint = endpoints.get(trainers.indexOf(survivor));
            List<ConsumerRecord<String, ModelParameters>> all = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), TIMEOUT, survivor::assertAlive);
            assertEquals(EVENTS, all.get(all.size() - 1).value().totalCount());
            Await.until("nothing held any more", TIMEOUT, () -> !ready(survivorEndpoint).has("modelHeld"),
                    () -> survivor.tails(20));
            assertEquals(0.0, survivorEndpoint.gauge("gda_model_held"));
            assertFalse(survivor.log().contains("Exception in thread"), survivor.tails(40));
        }
    }

    /**
     * Once the group has settled (tasks move between instances for a few seconds after one joins or leaves, and a
     * moment in which every partition's newest snapshot agrees may rightly publish), no version is published for
     * {@link #WATCHED} while a trainer says the model is held. Returns that trainer's index.
     */
    private static int assertNoVersionWhileHeld(KafkaBroker broker, Topics topics, List<ProductProcess> trainers,
                                                 List<OpsHttp> endpoints) throws InterruptedException {
        Thread.sleep(SETTLE.toMillis());
        int held = awaitHold(trainers, endpoints);
        int models = broker.readAll(topics.model(), TIMEOUT).size();
        Thread.sleep(WATCHED.toMillis());
        assertTrue(ready(endpoints.get(held)).has("modelHeld"), trainers.get(held).tails(20));
        assertEquals(models, broker.readAll(topics.model(), TIMEOUT).size(), "no version while held");
        return held;
    }

    /** The index of the running trainer whose readiness says the model is held. */
    private static int awaitHold(List<ProductProcess> trainers, List<OpsHttp> endpoints) {
        int[] holding = {-1};
        Await.until("a trainer holds the model back", TIMEOUT, () -> {
            for (int i = 0; i < trainers.size(); i++) {
                if (trainers.get(i).isAlive() && ready(endpoints.get(i)).has("modelHeld")) {
                    holding[0] = i;
                    return true;
                }
            }
            return false;
        }, () -> String.join("\n", trainers.stream().map(t -> t.tails(15)).toList()));
        return holding[0];
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
