package io.gdastreams.topology;

import io.gdastreams.math.Forgetting;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.SerdeFactory;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The model record the combiner would publish next: the merge of the kept snapshots ({@link PartialMerge}) and its
 * bytes, within the record limit.
 *
 * <p>The partition tasks refuse new classes beyond {@link ModelSizeBound}, but tasks adding different classes
 * within one interval can still overshoot together: the newest classes not yet published are then left out (the
 * last in label order first) rather than fail to publish (docs/TRAINING.md, "Model size").
 *
 * @param modelId the model the combiner builds
 * @param maxBytes the largest model record it may publish
 * @param forgetting exponential forgetting of the training, null for none: the partitions' statistics are then
 *                   advanced to their latest reference time before they are merged
 */
record ModelDraft(String modelId, long maxBytes, Forgetting forgetting) {

    /** A draft without forgetting. */
    ModelDraft(String modelId, long maxBytes) {
        this(modelId, maxBytes, null);
    }

    private static final Serializer<ModelParameters> SERIALIZER = SerdeFactory.model().serializer();

    /** The outcome of a draft. */
    sealed interface Result permits NoEvents, TooLarge, Ready {
    }

    /** The snapshots hold no event yet (dead letters only): nothing to model. */
    record NoEvents() implements Result {
    }

    /** Over the limit with only the classes already published: {@code notice} says so. */
    record TooLarge(String notice) implements Result {
    }

    /** {@code model}, serialised as {@code bytes}, without the classes {@code leftOut}. */
    record Ready(ModelParameters model, byte[] bytes, SortedSet<String> leftOut) implements Result {
    }

    /**
     * @param partials the kept snapshots (not modified)
     * @param features the schema (empty if none is fixed)
     * @param published the labels of the last published model: never left out
     */
    Result draft(Collection<PartialSnapshot> partials, List<String> features, long version, String updatedAt,
                 String trainer, Set<String> published) {
        SortedSet<String> leftOut = new TreeSet<>();
        ModelParameters model = PartialMerge.model(partials, leftOut, features, modelId, version, updatedAt, trainer,
                forgetting);
        if (model.eventsAbsorbed() == 0) { // every event retracted still makes a model (of empty classes)
            return new NoEvents();
        }
        byte[] bytes = SERIALIZER.serialize(null, model);
        while (bytes.length > maxBytes) {
            Optional<String> newest = model.classes().stream().map(ClassParameters::label)
                    .filter(label -> !published.contains(label)).reduce((a, b) -> b);
            if (newest.isEmpty()) {
                return new TooLarge("model '" + modelId + "' would be " + bytes.length + " bytes, over the record limit "
                        + maxBytes + ", with only the classes it already published; not published");
            }
            leftOut.add(newest.get());
            model = PartialMerge.model(partials, leftOut, features, modelId, version, updatedAt, trainer, forgetting);
            bytes = SERIALIZER.serialize(null, model);
        }
        return new Ready(model, bytes, Collections.unmodifiableSortedSet(leftOut));
    }
}
