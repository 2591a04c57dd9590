package io.gdastreams.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.it.Await;
import io.gdastreams.it.IrisEndToEndScenario;
import io.gdastreams.it.IrisGolden;
import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.UniqueNames;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.reliability.ProductProcess.Command;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupSubtopologyDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product under Kafka Streams' own group protocol ({@code group.protocol=streams}: the broker assigns the tasks)
 * on a real Kafka 4.4 broker. Two trainers share the labelled topic's four partitions (each reads some); one is
 * killed (SIGKILL) halfway through Iris and the broker moves its tasks to the other once its session has timed out
 * (45 s, the broker's minimum); the model holds every row exactly once and is the golden maximum-likelihood one. A
 * scorer under the same protocol answers every row once, at the golden posteriors, with no dead letter. Where the
 * broker does not offer the protocol: OlderBrokerContainerIT (PreviousBrokerContainerIT, on 4.3.1, trains with it).
 */
@ExtendWith(KafkaBrokerExtension.class)
class StreamsGroupProtocolIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** The killed trainer's tasks wait for its session to time out (45 s) before they move. */
    private static final Duration AFTER_KILL = Duration.ofSeconds(150);
    private static final int PARTITIONS = IrisEndToEndScenario.PARTITIONS;

    @TempDir
    Path dir;

    @Test
    void twoTrainersCountEveryRowOnceAcrossAKillAndAScorerAnswersEachRowOnce(KafkaBroker broker) throws Exception {
        Topics topics = KafkaBroker.uniqueTopics();
        Map<String, String> config = ProductProcess.testConfig(broker.bootstrapServers(), topics, "iris",
                UniqueNames.of("streams-protocol"), dir.resolve("state-a"), PARTITIONS);
        config.put("gda.features", String.join(",", Iris.FEATURES));
        config.put("group.protocol", "streams");
        Map<String, String> second = new LinkedHashMap<>(config);
        second.put("state.dir", dir.resolve("state-b").toString());
        IrisGolden golden = IrisGolden.fullMle();
        List<IrisGolden.Row> rows = golden.rows();
        try (ProductProcess killed = new ProductProcess(Command.TRAIN, config, dir, "train-a");
             ProductProcess survivor = new ProductProcess(Command.TRAIN, second, dir, "train-b");
             ProductProcess score = new ProductProcess(Command.SCORE, config, dir, "score");
             KafkaProducer<byte[], byte[]> producer = broker.producer()) {
            killed.start();
            survivor.start();
            killed.awaitRunning(TIMEOUT);
            survivor.awaitRunning(TIMEOUT);

            // The broker shares the tasks out: whichever trainer is killed held some.
            String group = config.get("gda.application.id") + "-training";
            String labelled = topics.labelled().name();
            Await.until("both trainers read labelled partitions", TIMEOUT, () -> {
                Map<String, Integer> tasks = labelledTasksByMember(broker, group, labelled);
                return tasks.size() == 2 && !tasks.containsValue(0);
            }, () -> labelledTasksByMember(broker, group, labelled).toString());
            send(producer, topics.labelled().name(), rows.subList(0, rows.size() / 2), golden, true);
            broker.readModelsUntilAbsorbed(topics.labelled(), topics.model(), TIMEOUT, () -> {
                killed.assertAlive();
                survivor.assertAlive();
            });
            killed.sigkill();
            send(producer, topics.labelled().name(), rows.subList(rows.size() / 2, rows.size()), golden, true);
            List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                    topics.model(), AFTER_KILL, survivor::assertAlive);
            ModelParameters model = models.get(models.size() - 1).value();
            assertEquals(rows.size(), model.totalCount(), survivor.tails(30));
            TrainingFixtures.assertModelEquals(TrainingFixtures.goldenIrisMle(), model);

            score.start();
            score.awaitRunning(TIMEOUT);
            send(producer, topics.unlabelled().name(), rows, golden, false);
            List<ConsumerRecord<String, Prediction>> predictions = broker.readUntil(topics.predictions().name(),
                    SerdeFactory.string().deserializer(), topics.predictions().valueDeserializer(), records -> {
                        score.assertAlive();
                        return records.size() >= rows.size();
                    }, TIMEOUT);
            Map<String, Prediction> byKey = new HashMap<>();
            predictions.forEach(p -> assertNull(byKey.put(p.key(), p.value()), "a second answer to " + p.key()));
            for (IrisGolden.Row row : rows) {
                IrisEndToEndScenario.assertGolden(row, byKey.get(IrisEndToEndScenario.key(row)), "iris",
                        model.version());
            }
            List<ConsumerRecord<byte[], DeadLetter>> deadLetters = broker.readAll(topics.deadLetters(), TIMEOUT);
            assertEquals(List.of(), deadLetters.stream().map(ConsumerRecord::value).toList(), "no dead letters");
            assertFalse(survivor.log().contains("does not support"), survivor.log());
        }
    }

    /**
     * How many of {@code labelled}'s partitions the broker assigns each member of the streams group {@code group} as
     * active tasks (those of the subtopology that reads it; the partials subtopology's task is not counted).
     */
    private static Map<String, Integer> labelledTasksByMember(KafkaBroker broker, String group, String labelled) {
        try {
            StreamsGroupDescription description = broker.admin().describeStreamsGroups(List.of(group)).all()
                    .get(30, TimeUnit.SECONDS).get(group);
            Set<String> reading = description.subtopologies().stream()
                    .filter(s -> s.sourceTopics().contains(labelled))
                    .map(StreamsGroupSubtopologyDescription::subtopologyId).collect(Collectors.toSet());
            Map<String, Integer> tasks = new HashMap<>();
            for (StreamsGroupMemberDescription member : description.members()) {
                tasks.put(member.memberId(), member.assignment().activeTasks().stream()
                        .filter(t -> reading.contains(t.subtopologyId())).mapToInt(t -> t.partitions().size()).sum());
            }
            return tasks;
        } catch (Exception e) {
            return Map.of("no description: " + e, 0);
        }
    }

    /** Sends {@code rows} as labelled or unlabelled events, each to partition index mod {@link #PARTITIONS}. */
    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, List<IrisGolden.Row> rows,
                             IrisGolden golden, boolean labelled) throws Exception {
        for (IrisGolden.Row row : rows) {
            byte[] value = labelled ? golden.labelledJson(row) : golden.unlabelledJson(row, null);
            producer.send(new ProducerRecord<>(topic, row.index() % PARTITIONS,
                    IrisEndToEndScenario.key(row).getBytes(StandardCharsets.UTF_8), value)).get();
        }
    }
}
