package io.gdastreams.topology;

import io.gdastreams.model.LabelledEvent;
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
    private final PrequentialEvaluator evaluator;
    private final PrequentialModel model;

    /** {@code model}: the compiled-model cache, kept across inits by the processor; null when prequential is off. */
    TestThenTrain(TrainingSettings settings, ProcessorContext<String, TrainingOutput> context,
                  PublishedModelView publishedModel, PrequentialModel model) {
        this.settings = settings;
        this.context = context;
        this.publishedModel = publishedModel;
        this.model = model;
        this.evaluator = settings.prequential() == null ? null
                : new PrequentialEvaluator(settings.modelId(), settings.prequential(), context.taskId().partition(),
                        context.getStateStore(TrainingTopology.PREQUENTIAL_STORE));
    }

    boolean evaluates() {
        return evaluator != null;
    }

    /**
     * Test-then-train: scores the event about to be applied with the latest published model (not this partition's
     * state) and forwards the window it closes and a drift alarm, if any. An alarm under
     * {@code gda.drift.action=reset} starts the next reset generation of {@code state} here, so that this event is
     * the first of the new statistics.
     */
    void testBeforeTraining(LabelledEvent event, long timestamp, PartitionState state) {
        KeyValueStore<String, byte[]> onTopic = context.getStateStore(TrainingTopology.PUBLISHED_STORE);
        CompiledModel compiled = model.of(onTopic.get(settings.modelId()));
        long own = state.generation().number();
        PrequentialEvaluator.Observation observation = evaluator.observe(event, timestamp, compiled,
                publishedModel.generation(context.applicationId()), own);
        for (String json : observation.records()) {
            context.forward(new Record<>(settings.modelId(), (TrainingOutput) new TrainingOutput.Metrics(json),
                    timestamp));
        }
        if (observation.reset()) {
            LOG.info("Drift in partition {} of model '{}' at event time {}: starting reset generation {}",
                    context.taskId().partition(), settings.modelId(), timestamp, own + 1);
            state.startGeneration(own + 1);
        }
    }

    /**
     * A model this application published of a newer reset generation than {@code state}'s statistics means another
     * partition's drift test fired: this partition drops its statistics of the old regime too, so that the
     * combiner's next models count its events again. Its drift test restarts: the model in force is the new one.
     */
    void followPublishedGeneration(PartitionState state) {
        long published = publishedModel.generation(context.applicationId());
        if (published > state.generation().number()) {
            LOG.info("Partition {} of model '{}' takes up reset generation {} from the published model",
                    context.taskId().partition(), settings.modelId(), published);
            state.startGeneration(published);
            if (evaluator != null) {
                evaluator.restartDetector();
            }
        }
    }
}
