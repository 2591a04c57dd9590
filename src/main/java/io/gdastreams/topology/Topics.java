package io.gdastreams.topology;

import io.gdastreams.config.ConfigKey;
import io.gdastreams.config.ConfigValues;
import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.Prediction;
import io.gdastreams.serde.SerdeFactory;
import java.util.Objects;

/**
 * The six configured topics ({@code gda.topic.*}), each declared here once with what its keys and values are.
 * Topologies, commands and tests build their sources, sinks, producers and consumers from these declarations.
 *
 * <p>The two event topics and the model topic as the topologies read it are raw bytes on purpose: a record that
 * cannot be decoded is dead-lettered with its original bytes (events) or refused with its reason (models), never
 * a deserialisation failure that stops a task. {@link #model()} is the typed view of the model topic for clients
 * and tests; {@link #modelRecords()} is the same topic as the topologies see it.
 */
public record Topics(Topic<byte[], byte[]> labelled, Topic<byte[], byte[]> unlabelled,
                     Topic<String, ModelParameters> model, Topic<byte[], Prediction> predictions,
                     Topic<byte[], DeadLetter> deadLetters, Topic<String, MetricsRecord> metrics) {

    public Topics {
        Objects.requireNonNull(labelled, "labelled");
        Objects.requireNonNull(unlabelled, "unlabelled");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(predictions, "predictions");
        Objects.requireNonNull(deadLetters, "deadLetters");
        Objects.requireNonNull(metrics, "metrics");
    }

    /** The five topics the scorer and the trainer always use, with the metrics topic under its default name. */
    public Topics(Topic<byte[], byte[]> labelled, Topic<byte[], byte[]> unlabelled,
                  Topic<String, ModelParameters> model, Topic<byte[], Prediction> predictions,
                  Topic<byte[], DeadLetter> deadLetters) {
        this(labelled, unlabelled, model, predictions, deadLetters,
                metricsNamed(ConfigValues.DEFAULTS.string(ConfigKey.TOPIC_METRICS)));
    }

    /** The five topics under these names. */
    public Topics(String labelled, String unlabelled, String model, String predictions, String deadLetters) {
        this(events(labelled), events(unlabelled), models(model), predictionsNamed(predictions),
                deadLettersNamed(deadLetters));
    }

    /** The six topics under these names. */
    public Topics(String labelled, String unlabelled, String model, String predictions, String deadLetters,
                  String metrics) {
        this(events(labelled), events(unlabelled), models(model), predictionsNamed(predictions),
                deadLettersNamed(deadLetters), metricsNamed(metrics));
    }

    /** These topics with the metrics topic named {@code name}. */
    public Topics withMetrics(String name) {
        return new Topics(labelled, unlabelled, model, predictions, deadLetters, metricsNamed(name));
    }

    /** The default names ({@code gda.topic.*}). */
    public static Topics defaults() {
        return from(ConfigValues.DEFAULTS);
    }

    /** The names a configuration gives ({@code gda.topic.*}). */
    public static Topics from(ConfigValues config) {
        return new Topics(config.string(ConfigKey.TOPIC_LABELLED), config.string(ConfigKey.TOPIC_UNLABELLED),
                config.string(ConfigKey.TOPIC_MODEL), config.string(ConfigKey.TOPIC_PREDICTIONS),
                config.string(ConfigKey.TOPIC_DEAD_LETTERS), config.string(ConfigKey.TOPIC_METRICS));
    }

    /**
     * The model topic with its values as raw bytes: how the trainer writes it (a model is serialised before it is
     * sent, to check its size) and how the trainer and the scorer read it (a record that does not decode is refused
     * with its reason).
     */
    public Topic<String, byte[]> modelRecords() {
        return new Topic<>(model.name(), SerdeFactory.string(), SerdeFactory.rawBytes());
    }

    /** Event topics: key and value as raw bytes; the topologies decode them (strictly) themselves. */
    private static Topic<byte[], byte[]> events(String name) {
        return new Topic<>(name, SerdeFactory.rawBytes(), SerdeFactory.rawBytes());
    }

    /** The model topic: key = model id, value = the model as JSON, read strictly (serde.ModelSerde). */
    private static Topic<String, ModelParameters> models(String name) {
        return new Topic<>(name, SerdeFactory.string(), SerdeFactory.model());
    }

    /** Predictions: keyed like the event they answer (raw bytes), value JSON (serde.PredictionJson). */
    private static Topic<byte[], Prediction> predictionsNamed(String name) {
        return new Topic<>(name, SerdeFactory.rawBytes(), SerdeFactory.prediction());
    }

    /**
     * The trainer's prequential records (gda.prequential): key = model id, value = one JSON object per window or
     * drift (serde.MetricsJson; docs/TRAINING.md, "Prequential evaluation"). Delete retention: a history.
     */
    private static Topic<String, MetricsRecord> metricsNamed(String name) {
        return new Topic<>(name, SerdeFactory.string(), SerdeFactory.metrics());
    }

    /** Dead letters: keyed like the record they reject (raw bytes), value JSON. */
    private static Topic<byte[], DeadLetter> deadLettersNamed(String name) {
        return new Topic<>(name, SerdeFactory.rawBytes(), SerdeFactory.deadLetter());
    }
}
