package io.gdastreams.topology;

import static io.gdastreams.topology.TrainingFixtures.labelledJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.it.KafkaBroker;
import io.gdastreams.it.KafkaBrokerExtension;
import io.gdastreams.it.PipelineUnderTest;
import io.gdastreams.it.Await;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.SerdeFactory;
import io.gdastreams.service.GroupCommittedInput;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two partition tasks that meet different new classes before either sees a published model admit them together,
 * past the model size bound's class count. On a real broker the combiner then publishes no more classes than the
 * bound, in this version and every later one, so that the model stays publishable as its numbers grow
 * (docs/TRAINING.md, "Model size"), and it goes on publishing what the kept classes learn; the left-out class's
 * later events are dead-lettered with the reason.
 */
@ExtendWith(KafkaBrokerExtension.class)
class ClassesBeyondTheSizeBoundIT {

    private static final List<String> AB = List.of("a", "b");
    /** Room for two classes of two features by {@link ModelSizeBound}, while the model itself takes a few KB. */
    private static final long LIMIT = ModelSizeBound.HEADER_BYTES + ModelSizeBound.classBytes(AB.size()) * 5 / 2
            + 2 * (6 + 3);
    private static final int BOUND = 2;
    private static final Duration PUBLISH_INTERVAL = Duration.ofSeconds(2);
    private static final long SEED = 20261128L;
    /** Class → the partition its events go to: k1 and k2 to one task, k3 to the other. */
    private static final Map<String, Integer> PARTITION_OF = Map.of("k1", 0, "k2", 0, "k3", 1);

    @TempDir
    Path stateDir;

    private PipelineUnderTest pipeline;
    private KafkaStreams streams;
    private final Random random = new Random(SEED);

    @AfterEach
    void stop() {
        PipelineUnderTest.close(streams, pipeline);
    }

    private void send(int perClass) {
        for (int i = 0; i < perClass; i++) {
            for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(PARTITION_OF).entrySet()) {
                double centre = 10.0 * Integer.parseInt(e.getKey().substring(1));
                double[] x = {centre + random.nextGaussian(), -centre + random.nextGaussian()};
                pipeline.send(pipeline.topics().labelled().name(), e.getValue(), e.getKey() + "-" + i,
                        labelledJson(AB, x, e.getKey()));
            }
        }
    }

    /** Waits until the trainer's tasks check events against {@code version} or a later model. */
    private void awaitPublishedInTrainersStore(long version) {
        Await.until("the trainer's store holds version " + version, PipelineUnderTest.TIMEOUT, () -> {
            try {
                ReadOnlyKeyValueStore<String, byte[]> store = streams.store(StoreQueryParameters.fromNameAndType(
                        TrainingTopology.PUBLISHED_STORE, QueryableStoreTypes.keyValueStore()));
                byte[] record = store.get(pipeline.modelId());
                return record != null
                        && SerdeFactory.model().deserializer().deserialize(null, record).version() >= version;
            } catch (InvalidStateStoreException e) {
                return false;
            }
        }, () -> "");
    }

    private static Set<String> labels(ModelParameters model) {
        return model.classes().stream().map(ClassParameters::label).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void shouldPublishNoMoreClassesThanTheBoundWhenTasksAdmitNewClassesTogether(KafkaBroker broker) {
        pipeline = PipelineUnderTest.create(broker, 2);
        TrainingSettings settings = pipeline.trainingSettings().withMaxModelBytes(LIMIT)
                .withPublishInterval(PUBLISH_INTERVAL);
        assertEquals(BOUND, ModelSizeBound.maxClasses(AB, settings));
        send(20);
        Properties props = broker.streamsProperties(KafkaBroker.uniqueName("training"), stateDir);
        // One stream thread for both tasks: the events are on the topic before it starts, so it meets all three
        // classes in its first iterations, before any snapshot tick, and no task has seen a model when it admits them.
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        // What the combiner tells its observer (the trainer's gda_model_classes_left_out): the last version's.
        AtomicReference<Set<String>> lastLeftOut = new AtomicReference<>();
        streams = new KafkaStreams(TrainingTopology.build(settings, GroupCommittedInput::open, new StreamObserver() {
            @Override
            public void modelPublished(ModelParameters model, Set<String> leftOut) {
                lastLeftOut.set(leftOut);
            }
        }), props);
        streams.start();

        ModelParameters first = pipeline.awaitModelAbsorbingAllLabelled();
        Set<String> kept = labels(first);
        assertEquals(BOUND, kept.size(), "classes of the first model absorbing every event: " + kept);
        assertEquals(20L * BOUND, first.totalCount(), "the left-out class's events count in no class");
        assertEquals(20L, first.leftOut(), "but in the model's leftOut");

        String leftOut = PARTITION_OF.keySet().stream().filter(label -> !kept.contains(label)).findFirst().orElseThrow();
        awaitPublishedInTrainersStore(first.version());

        send(10);
        ModelParameters later = pipeline.awaitModelAbsorbingAllLabelled();
        assertTrue(later.version() > first.version());
        assertEquals(kept, labels(later), "the same classes, now and later");
        assertEquals(30L * BOUND, later.totalCount(), "the kept classes learn every event of theirs");
        // The left-out class's later events would be learnt by no model: its partition refuses them, with the reason.
        List<ConsumerRecord<byte[], DeadLetter>> letters = broker.readAll(pipeline.topics().deadLetters(),
                PipelineUnderTest.TIMEOUT);
        assertEquals(10, letters.size(), "dead letters");
        assertEquals(Set.of(leftOut), lastLeftOut.get(), "the classes the last version left out");
        // Every labelled record is in the model (a class or leftOut) or on the dead-letter topic.
        assertEquals(20L, later.leftOut());
        assertEquals(30L * (BOUND + 1), later.totalCount() + later.leftOut() + letters.size(), "every record");
        for (ConsumerRecord<byte[], DeadLetter> letter : letters) {
            assertTrue(letter.value().reason().startsWith("model size limit: label '" + leftOut + "' is left out of"
                    + " model '" + pipeline.modelId() + "', whose 2 published classes"), letter.value().reason());
            assertEquals(pipeline.topics().labelled().name(), letter.value().topic());
        }

        for (ConsumerRecord<String, ModelParameters> record : broker.readAll(pipeline.topics().model(),
                PipelineUnderTest.TIMEOUT)) {
            assertTrue(record.value().classes().size() <= BOUND, "version " + record.value().version() + " has "
                    + labels(record.value()));
        }
    }
}
