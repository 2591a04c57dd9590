package io.gdastreams.topology;

import io.gdastreams.model.ModelParameters;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What a training task needs to know of the newest model on the model topic (the trainer's global store
 * {@link TrainingTopology#PUBLISHED_STORE}): its labels and categorical values, for the bounds on new classes and
 * values, its reset generation, and its lineage, for the check that this task's state is not behind what this
 * application published. The store is read once per event ({@link #refresh}), so that everything the event is
 * checked and tested against comes from one record (the global thread may replace it meanwhile); the record is
 * decoded again only when the store returns another one (compared by identity).
 */
final class PublishedModelView {

    private final TrainingSettings settings;
    private final KeyValueStore<String, byte[]> published;
    /** The application this task runs in: only its own published generations are this task's. */
    private final String applicationId;
    private final boolean categorical;
    /** The record of the last {@link #refresh}, decoded once, and what was read from it. */
    private PublishedRecord current = PublishedRecord.NONE;
    private Set<String> labels = Set.of();
    private Map<String, Set<String>> values = Map.of();
    private long generation;
    /** The continuous features of the newest valid model when this application published it, else empty. */
    private List<String> ownSchema = List.of();
    /** The size bound's class count ({@link ModelSizeBound}) for {@link #boundSchema}, computed once per schema. */
    private long classBound;
    private List<String> boundSchema;

    PublishedModelView(TrainingSettings settings, KeyValueStore<String, byte[]> published, String applicationId) {
        this.settings = settings;
        this.published = published;
        this.applicationId = applicationId;
        this.categorical = !settings.categorical().featureSet().isEmpty();
    }

    /**
     * Reads the newest record under the model id from the store (once per event, before anything else asks this
     * view) and returns it decoded: its bytes are null when there is none. What the other methods answer is of this
     * record.
     */
    PublishedRecord refresh() {
        byte[] record = published.get(settings.modelId());
        if (record != current.bytes()) {
            current = PublishedRecord.decode(settings.modelId(), record);
            labels = Set.of();
            generation = 0;
            ownSchema = List.of();
            ModelParameters model = current.model();
            try {
                if (PublishedModel.isPublished(settings.modelId(), model)) {
                    labels = new HashSet<>(PublishedModel.labels(model));
                    boolean own = applicationId.equals(model.trainer());
                    generation = own ? model.resetGeneration() : 0;
                    ownSchema = own && model.features() != null ? List.copyOf(model.features()) : List.of();
                }
            } catch (RuntimeException e) {
                labels = Set.of(); // not a valid model (as PublishedModel.parse judges it): none
                generation = 0;
                ownSchema = List.of();
            }
            values = categorical ? PublishedModel.categoricalValues(model) : Map.of();
        }
        return current;
    }

    /** The labels of the newest valid model on the model topic (as of the last {@link #refresh}). */
    Set<String> labels() {
        return labels;
    }

    /**
     * The reset generation of the newest valid model on the model topic (as of the last {@link #refresh}) when this
     * application published it, else 0: a partition of an older generation starts the newer one (docs/TRAINING.md,
     * "Drift detection"); another application's generations are not this trainer's.
     */
    long generation() {
        return generation;
    }

    /**
     * The continuous features of the newest valid model on the model topic when this application published it (as
     * of the last {@link #refresh}), else empty: the schema a partition without one takes, so that a mistyped first
     * event of a partition cannot fix a schema the model's other partitions do not share. A model handed over by
     * {@code reset} (empty trainer) or another application's is not this trainer's: its next first events choose.
     */
    List<String> ownSchema() {
        return ownSchema;
    }

    /** The categorical values of the newest valid model on the model topic (as of the last {@link #refresh}). */
    Map<String, Set<String>> values() {
        return values;
    }

    /**
     * Why an event of {@code label} cannot be applied within the model size bound ({@link ModelSizeBound}), or
     * null. The model's classes are those published so far and this partition's own ({@code own}):
     * <ul>
     *   <li>a class new to the partition must not push their count past the bound;</li>
     *   <li>a class of its own that the newest model left out, while that model's published classes fill the
     *       bound, can be taken by no later version (the combiner keeps the published classes and adds none beyond
     *       the bound; docs/TRAINING.md, "Model size"): its events would be learnt by no model, and are refused
     *       instead. Checked at every event of an own class: one comparison while the bound is not full.</li>
     * </ul>
     */
    String sizeLimit(String label, List<String> schema, Set<String> own) {
        long maxBySize = maxClasses(schema);
        Set<String> known = labels();
        if (own.contains(label)) {
            if (known.size() < maxBySize || known.contains(label)) {
                return null;
            }
            return "model size limit: label '" + label + "' is left out of model '" + settings.modelId()
                    + "', whose " + known.size() + " published classes are as many as a model of d = "
                    + schema.size() + " may have within the record limit of " + settings.maxModelBytes() + " bytes"
                    + " (producer.max.request.size; docs/TRAINING.md, 'Model size')";
        }
        if (known.contains(label)) {
            return null;
        }
        long count = known.size();
        for (String ownLabel : own) {
            if (!known.contains(ownLabel)) {
                count++;
            }
        }
        if (count < maxBySize) {
            return null;
        }
        return "model size limit: label '" + label + "' would be class " + (count + 1) + " of model '"
                + settings.modelId() + "'; at d = " + schema.size() + " a model of more than " + maxBySize
                + " classes could exceed the record limit of " + settings.maxModelBytes() + " bytes"
                + " (producer.max.request.size; docs/TRAINING.md, 'Record sizes and limits')";
    }

    /** The size bound's class count for {@code schema}, computed again only when the schema changes. */
    private long maxClasses(List<String> schema) {
        if (schema != boundSchema && !schema.equals(boundSchema)) {
            classBound = ModelSizeBound.maxClasses(schema, settings);
            boundSchema = schema;
        }
        return classBound;
    }

    /**
     * Under exactly-once, a model application {@code applicationId} published can only hold what partition
     * {@code partition}'s state had committed before. A state that reaches only {@code reached} while such a model
     * absorbed more lost events (a restore that came back short, a deleted changelog): the reason, or empty.
     */
    Optional<String> lineageProblem(String applicationId, int partition, long reached) {
        return PublishedModel.parse(settings.modelId(), published.get(settings.modelId()))
                .filter(model -> model.publishedBy(applicationId))
                .flatMap(model -> {
                    Long absorbed = model.sources().get(Integer.toString(partition));
                    if (absorbed == null || absorbed <= reached) {
                        return Optional.empty();
                    }
                    return Optional.of("the training state of partition " + partition + " reaches offset " + reached
                            + " but version " + model.version() + " of model '" + settings.modelId()
                            + "', published by this application, absorbed it up to offset " + absorbed
                            + ": the state was lost (see docs/RELIABILITY.md, 'Recovering from lost training state')");
                });
    }
}
