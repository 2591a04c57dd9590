package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The scoring topology: unlabelled events joined with the model in force, one prediction per event.
 *
 * <pre>
 * model-parameters ──► [model-updater] ──► global store "scoring-model" + compiled-model cache
 *                                                     │ (every instance sees every model)
 * unlabelled-events ──► [scorer] ◄────────────────────┘
 *                         ├──► predictions   (one per input: scored, or unscored with a reason)
 *                         └──► dead-letters  (input that cannot be read)
 *                       store "scoring-pending": events held until the first model arrives
 * </pre>
 *
 * The model is fitted with the scorer's own {@link io.gdastreams.math.FitOptions} and factorised once per
 * version; per event the scorer only looks up features and runs triangular solves. docs/ARCHITECTURE.md follows one
 * unlabelled event through it, class by class.
 */
public final class ScoringTopology {

    /** Global store: model id → the model in force (only models the compiled-model cache put in force). */
    public static final String MODEL_STORE = "scoring-model";
    /** Changelog-backed store of events held until a model can score them (per task, sequence → event). */
    public static final String PENDING_STORE = "scoring-pending";

    static final String MODEL_SOURCE = "model-source";
    static final String MODEL_UPDATER = "model-updater";
    static final String EVENTS_SOURCE = "unlabelled-source";
    static final String SCORER = "scorer";
    static final String PREDICTIONS_SINK = "predictions-sink";
    static final String DEAD_LETTERS_SINK = "dead-letters-sink";

    private ScoringTopology() {
    }

    public static Topology build(ScoringSettings settings) {
        return build(settings, CompiledModelCache.of(settings));
    }

    /**
     * Why {@code model} can score no event under {@code settings} (every class is excluded, e.g. each seen fewer
     * than {@code gda.min.count} times: a scorer holds events until a version that can), or empty when it can.
     *
     * @throws IllegalArgumentException when the model does not compile
     */
    public static Optional<String> unscorable(ScoringSettings settings, ModelParameters model) {
        return Optional.ofNullable(CompiledModelCache.of(settings).compile(model).unscorable())
                .map(UnscoredReason::text);
    }

    /** As {@link #build(ScoringSettings)}, with a cache the caller can inspect (tests count compilations). */
    static Topology build(ScoringSettings settings, CompiledModelCache cache) {
        return build(settings, cache, StreamObserver.NONE);
    }

    /** As {@link #build(ScoringSettings, CompiledModelCache)}, telling {@code observer} what the scorer does. */
    static Topology build(ScoringSettings settings, CompiledModelCache cache, StreamObserver observer) {
        Topics topics = settings.topics();
        Topology topology = new Topology();
        // The global store is kept in memory and rebuilt from the compacted topic on start-up, which runs every
        // model record through the updater again, so the cache and the store can never disagree, and a restarted
        // scorer applies the same intake rules to the same records in the same order (same model in force).
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(MODEL_STORE), SerdeFactory.string(),
                        SerdeFactory.model()).withLoggingDisabled(),
                MODEL_SOURCE, topics.modelRecords().keyDeserializer(), topics.modelRecords().valueDeserializer(),
                topics.modelRecords().name(), MODEL_UPDATER, () -> new ModelStoreUpdater(cache, settings.signing()));
        topology.addSource(Topic.RESET, EVENTS_SOURCE, topics.unlabelled().keyDeserializer(),
                topics.unlabelled().valueDeserializer(), topics.unlabelled().name());
        topology.addProcessor(SCORER, () -> new ScoringProcessor(settings, cache, observer),
                EVENTS_SOURCE);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PENDING_STORE),
                SerdeFactory.rawBytes(), SerdeFactory.rawBytes()), SCORER);
        topology.addSink(PREDICTIONS_SINK, topics.predictions().name(), topics.predictions().keySerializer(),
                predictionOutput(topics.predictions().valueSerializer()), SCORER);
        topology.addSink(DEAD_LETTERS_SINK, topics.deadLetters().name(), topics.deadLetters().keySerializer(),
                topics.deadLetters().valueSerializer(), SCORER);
        return topology;
    }

    /**
     * The predictions sink's value serializer: a {@link Prediction} record through {@code records} (the topic's
     * own), bytes as they are. The scorer writes the common scored predictions itself, into its task's reused
     * buffer ({@link ScoringOutcome.ScoredPosterior}), so that no record is built for them; those bytes are what
     * {@code records} writes for the same prediction ({@code PosteriorWriterTest}).
     */
    static Serializer<Object> predictionOutput(Serializer<Prediction> records) {
        return new Serializer<>() {
            @Override
            public byte[] serialize(String topic, Object value) {
                return value instanceof byte[] written ? written : records.serialize(topic, (Prediction) value);
            }

            @Override
            public void close() {
                records.close();
            }
        };
    }
}
