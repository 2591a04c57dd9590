package io.gdastreams.topology;

import io.gdastreams.model.MetricsRecord;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a training task does around applying an event besides the statistics: test-then-train evaluation
 * ({@code gda.prequential}: {@link PrequentialEvaluator} with the model of {@link PrequentialModel}) and the reset
 * generations of {@code gda.drift.action=reset} (docs/TRAINING.md, "Drift detection"). One per task
 * ({@link PartialStatsProcessor#init}), apart from the processor so that the processor keeps to reading,
 * checking and applying events.
 */
final class TestThenTrain {

    private static final Logger LOG = LoggerFactory.getLogger(TestThenTrain.class);

    private final TrainingSettings settings;
    private final ProcessorContext<String, TrainingOutput> context;
    private final PublishedModelView publishedModel;
    /** Null when gda.prequential is off (then only the reset generations are followed). */
    private final PrequentialModel model;
    /** The store earlier releases kept the prequential state in (null when test-then-train is off). */
    private final KeyValueStore<String, byte[]> legacyStore;
    /** Made from the partition's state by {@link #attach}; null until then, and when test-then-train is off. */
    private PrequentialEvaluator evaluator;
    /** The model and schema {@link #testsPoints} last decided for; {@link #posterior}: null when it said no. */
    private CompiledModel pointModel;
    private List<String> pointSchema;
    /** The posterior buffer of {@link #pointPosterior}, one entry per class of {@link #pointModel}. */
    private double[] posterior;

    /** {@code model}: the compiled-model cache, kept across inits by the processor; null when prequential is off. */
    TestThenTrain(TrainingSettings settings, ProcessorContext<String, TrainingOutput> context,
                  PublishedModelView publishedModel, PrequentialModel model) {
        this.settings = settings;
        this.context = context;
        this.publishedModel = publishedModel;
        this.model = model;
        this.legacyStore = evaluates() ? context.getStateStore(TrainingTopology.PREQUENTIAL_STORE) : null;
    }

    boolean evaluates() {
        return settings.prequential() != null;
    }

    /**
     * Under test-then-train, makes the evaluator from the prequential state stored with {@code state}'s progress
     * (or in the store of earlier releases) and attaches it to {@code state}, whose every progress write then stores
     * it ({@link PartitionState#attachTail}). Called whenever the processor (re)loads the state.
     */
    void attach(PartitionState state) {
        if (evaluates()) {
            evaluator = new PrequentialEvaluator(settings.modelId(), settings.prequential(),
                    context.taskId().partition(), state.loadedTail(), legacyStore);
            state.attachTail(evaluator);
        }
    }

    /**
     * The model the event with the published-model record {@code record} ({@link PublishedModelView#refresh}, read
     * once per event before the event is read) is tested with: the newest valid one on the model topic, or null when
     * there is none (or when test-then-train is off). The same model decides the reading ({@link #testsPoints}) and
     * the test.
     */
    CompiledModel modelInForce(PublishedRecord record) {
        return model == null ? null : model.of(record);
    }

    /**
     * Whether an event of {@code schema} can be tested with {@code compiled} (not null) from its point in schema
     * order alone ({@link #pointPosterior}): when the model's continuous features are the schema, in the same order,
     * and neither the model nor the task has categorical features. Otherwise the event must be decoded and scored
     * by its feature names ({@link CompiledModel#posterior(java.util.Map, java.util.Map)}). Decided once per model
     * and schema, as the scorer resolves the feature order once per model version.
     */
    boolean testsPoints(CompiledModel compiled, List<String> schema) {
        if (compiled != pointModel || !(schema == pointSchema || schema.equals(pointSchema))) {
            boolean fits = settings.categorical().features().isEmpty() && !compiled.hasCategories()
                    && compiled.features().equals(schema);
            pointModel = compiled;
            pointSchema = schema;
            posterior = fits ? new double[compiled.labels().size()] : null;
        }
        return posterior != null;
    }

    /**
     * The posterior under {@code compiled} of the point {@code x} (schema order), for a model and schema
     * {@link #testsPoints} accepted; written into one buffer of this task, reused for every event.
     */
    double[] pointPosterior(CompiledModel compiled, double[] x) {
        if (compiled != pointModel || posterior == null) {
            throw new IllegalStateException("points are tested only under the model testsPoints accepted");
        }
        return compiled.posterior(x, posterior);
    }

    /**
     * Test-then-train: scores the event of true {@code label} about to be applied with {@code compiled}, the
     * latest published model ({@link #modelInForce}; not this partition's state) by {@code scorer}, and forwards the
     * window it closes and a drift alarm, if any. Its log-loss feeds the drift test only when {@code compiled} has
     * warmed up ({@link DriftWarmUp}). An alarm under {@code gda.drift.action=reset} starts the next
     * reset generation of {@code state} here, at the event's input {@code offset}, so that this event is the first of
     * the new statistics.
     */
    void testBeforeTraining(String label, CompiledModel compiled, PrequentialEvaluator.Scorer scorer, long timestamp,
                            long offset, PartitionState state) {
        long own = state.generation().number();
        PrequentialEvaluator.Observation observation = evaluator.observe(label, timestamp, compiled, scorer,
                publishedModel.generation(), own, model.warmedUp(compiled));
        if (observation.records().isEmpty() && !observation.reset()) {
            return; // nearly every event
        }
        for (MetricsRecord record : observation.records()) {
            context.forward(new Record<>(settings.modelId(), (TrainingOutput) new TrainingOutput.Metrics(record),
                    timestamp));
        }
        if (observation.reset()) {
            LOG.info("Drift in partition {} of model '{}' at event time {}: starting reset generation {}",
                    context.taskId().partition(), settings.modelId(), timestamp, own + 1);
            state.startGeneration(own + 1, offset);
        }
    }

    /**
     * A model this application published of a newer reset generation than {@code state}'s statistics means another
     * partition's drift test fired: this partition drops its statistics of the old regime too, so that the
     * combiner's next models count its events again. Its drift test restarts: the model in force is the new one.
     * The new generation begins at {@code offset}, the input offset of the record about to be read: every event it
     * applies from then on is of the new generation.
     */
    void followPublishedGeneration(PartitionState state, long offset) {
        long published = publishedModel.generation();
        if (published > state.generation().number()) {
            LOG.info("Partition {} of model '{}' takes up reset generation {} from the published model",
                    context.taskId().partition(), settings.modelId(), published);
            state.startGeneration(published, offset);
            if (evaluator != null) {
                evaluator.restartDetector();
            }
        }
    }
}
