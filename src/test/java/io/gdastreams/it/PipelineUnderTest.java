package io.gdastreams.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.ScoringSettings;
import io.gdastreams.topology.ScoringTopology;
import io.gdastreams.topology.Topics;
import io.gdastreams.topology.TrainingSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * One test's own topics on a {@link TestBroker}, the fast test settings of TestBroker for the training and scoring
 * topologies on them, a producer, and probes of what the topologies published. Unique names keep tests that
 * share a broker apart.
 */
public final class PipelineUnderTest implements AutoCloseable {

    /** Bound of every wait: generous for a loaded 2-core machine, and only reached when something is wrong. */
    public static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Training tasks publish a snapshot this often: a model follows its input within a few hundred ms. */
    public static final Duration PUBLISH_INTERVAL = Duration.ofMillis(200);
    private static final Duration PENDING_CHECK_INTERVAL = Duration.ofMillis(100);

    private final TestBroker broker;
    private final Topics topics;
    private final int partitions;
    private final String modelId;
    private final KafkaProducer<byte[], byte[]> producer;

    private PipelineUnderTest(TestBroker broker, Topics topics, int partitions, String modelId) {
        this.broker = broker;
        this.topics = topics;
        this.partitions = partitions;
        this.modelId = modelId;
        this.producer = broker.producer();
    }

    /**
     * Creates the six topics: events and predictions with {@code partitions} partitions, model, dead letters and
     * metrics 1.
     */
    public static PipelineUnderTest create(TestBroker broker, int partitions) {
        Topics topics = new Topics(UniqueNames.of("labelled"), UniqueNames.of("unlabelled"),
                UniqueNames.of("model"), UniqueNames.of("predictions"), UniqueNames.of("dead-letters"))
                .withMetrics(UniqueNames.of("metrics"));
        broker.createTopics(Map.of(topics.labelled().name(), partitions, topics.unlabelled().name(), partitions, topics.model().name(), 1,
                topics.predictions().name(), partitions, topics.deadLetters().name(), 1, topics.metrics().name(), 1));
        return new PipelineUnderTest(broker, topics, partitions, UniqueNames.of("model-id"));
    }

    /**
     * A second pipeline on the same event topics with its own model, predictions and dead-letter topics and its
     * own model id: another application reading the same input, kept apart in everything it writes.
     */
    public PipelineUnderTest sharingInputs() {
        Topics own = new Topics(topics.labelled().name(), topics.unlabelled().name(), UniqueNames.of("model"),
                UniqueNames.of("predictions"), UniqueNames.of("dead-letters"));
        broker.createTopics(Map.of(own.model().name(), 1, own.predictions().name(), partitions, own.deadLetters().name(), 1));
        return new PipelineUnderTest(broker, own, partitions, UniqueNames.of("model-id"));
    }

    public TestBroker broker() {
        return broker;
    }

    public Topics topics() {
        return topics;
    }

    public String modelId() {
        return modelId;
    }

    /** Schema from the data, a snapshot every {@link #PUBLISH_INTERVAL}. */
    public TrainingSettings trainingSettings() {
        return TrainingSettings.defaults(topics).withModelId(modelId).withPublishInterval(PUBLISH_INTERVAL);
    }

    public ScoringSettings scoringSettings(FitOptions options) {
        return new ScoringSettings(topics, modelId, options, OptionalDouble.empty(),
                ScoringSettings.DEFAULT_MAX_PENDING, PENDING_CHECK_INTERVAL);
    }

    /** Sends one record and waits for its acknowledgement; returns where it landed. */
    public RecordMetadata send(String topic, int partition, String key, byte[] value) {
        try {
            return producer.send(new ProducerRecord<>(topic, partition,
                    key == null ? null : key.getBytes(StandardCharsets.UTF_8), value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot send to " + topic + "-" + partition, e.getCause());
        }
    }

    /** As {@link #send(String, int, String, byte[])} with the record timestamp {@code timestamp} (event time). */
    public RecordMetadata send(String topic, int partition, String key, byte[] value, long timestamp) {
        try {
            return producer.send(new ProducerRecord<>(topic, partition, timestamp,
                    key == null ? null : key.getBytes(StandardCharsets.UTF_8), value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot send to " + topic + "-" + partition, e.getCause());
        }
    }

    /**
     * The first model on the model topic whose lineage ({@code sources}) covers every record now on the labelled
     * topic. Asserts that it is keyed by the model id and that versions grew along the way.
     */
    public ModelParameters awaitModelAbsorbingAllLabelled() {
        List<ConsumerRecord<String, ModelParameters>> models = broker.readModelsUntilAbsorbed(topics.labelled(),
                topics.model(), TIMEOUT, () -> { });
        for (int i = 1; i < models.size(); i++) {
            assertTrue(models.get(i).value().version() > models.get(i - 1).value().version(),
                    "model versions grow: " + models.get(i - 1).value().version() + " then "
                            + models.get(i).value().version());
        }
        ConsumerRecord<String, ModelParameters> last = models.get(models.size() - 1);
        assertEquals(modelId, last.key(), "model record key");
        assertEquals(modelId, last.value().modelId());
        return last.value();
    }

    /**
     * Waits until the scoring instance's global model store holds {@code version} of the model. The updater puts
     * a model in the store only after the scorer's compiled-model cache took it, so from then on every event is
     * scored with that version (or a newer one).
     */
    public void awaitModelInForce(KafkaStreams scorer, long version) {
        long[] seen = {-1};
        Await.until("the scorer holds model version " + version, TIMEOUT, () -> {
            try {
                ReadOnlyKeyValueStore<String, ModelParameters> store = scorer.store(StoreQueryParameters
                        .fromNameAndType(ScoringTopology.MODEL_STORE, QueryableStoreTypes.keyValueStore()));
                ModelParameters model = store.get(modelId);
                seen[0] = model == null ? -1 : model.version();
                return seen[0] >= version;
            } catch (InvalidStateStoreException e) {
                return false; // not queryable until the instance runs
            }
        }, () -> "version in the store: " + seen[0]);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }

    /**
     * A test's teardown: closes {@code streams} (waiting up to 30 s) and wipes its local state, then
     * {@code pipeline}; either may be null (a test that failed before making it).
     */
    public static void close(KafkaStreams streams, PipelineUnderTest pipeline) {
        if (streams != null) {
            streams.close(Duration.ofSeconds(30));
            streams.cleanUp();
        }
        if (pipeline != null) {
            pipeline.close();
        }
    }
}
