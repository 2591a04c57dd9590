package io.gdastreams.topology;

import io.gdastreams.math.Forgetting;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.SerdeFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The model record the combiner would publish next: the merge of the kept snapshots ({@link PartialMerge}) and its
 * bytes, within the record limit.
 *
 * <p>The partition tasks refuse new classes beyond {@link ModelSizeBound}, but tasks adding different classes
 * within one interval can still overshoot together: the newest classes not yet published are then left out (the
 * last in label order first) rather than fail to publish (docs/TRAINING.md, "Model size"). As many are left out as
 * take the model past the bound's class count, even when today's bytes would fit: a model's numbers get longer as
 * it learns (a count gains digits, a covariance loses its round value), so a model over the bound that fits today
 * can outgrow the limit tomorrow, and then no version with the classes it published could ever be published
 * again (measured at K = 100, d = 256: version 2 had 59 classes, the bound allows 40, and every later try was
 * too large). Should the published classes alone be over the bound (a smaller limit since), only bytes decide.
 *
 * @param modelId the model the combiner builds
 * @param maxBytes the largest model record it may publish
 * @param forgetting exponential forgetting of the training, null for none: the partitions' statistics are then
 *                   advanced to their latest reference time before they are merged
 * @param classBound the most classes a model over a schema may have ({@link ModelSizeBound})
 */
record ModelDraft(String modelId, long maxBytes, Forgetting forgetting, ToLongFunction<List<String>> classBound) {

    /** A draft without forgetting, and bound by bytes alone. */
    ModelDraft(String modelId, long maxBytes) {
        this(modelId, maxBytes, null, features -> Long.MAX_VALUE);
    }

    /** The draft of a trainer with {@code settings}. */
    static ModelDraft of(TrainingSettings settings) {
        return new ModelDraft(settings.modelId(), settings.maxModelBytes(), settings.forgetting(),
                features -> ModelSizeBound.maxClasses(features, settings));
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
        ModelParameters model = PartialMerge.model(partials, Set.of(), features, modelId, version, updatedAt, trainer,
                forgetting);
        if (model.eventsAbsorbed() == 0) { // every event retracted still makes a model (of empty classes)
            return new NoEvents();
        }
        List<ClassParameters> newestFirst = new ArrayList<>(model.classes().stream()
                .filter(c -> !published.contains(c.label())).toList());
        Collections.reverse(newestFirst);
        long room = Math.max(classBound.applyAsLong(features), published.size());
        int beyondBound = (int) Math.min(newestFirst.size(), Math.max(0, model.classes().size() - room));
        int k = beyondBound;
        if (beyondBound == 0) {
            byte[] bytes = SERIALIZER.serialize(null, model);
            if (bytes.length <= maxBytes) {
                return new Ready(model, bytes, Collections.emptySortedSet());
            }
            if (newestFirst.isEmpty()) {
                return tooLarge(bytes.length);
            }
            // The fewest newest classes whose leaving out fits. Trying k = 1, 2, … with a merge and a serialisation
            // each costs K serialisations of a model over the limit (K = 100, d = 256: ≈ 50 of 70-125 MB, minutes
            // per publish); starting from the count each class's own JSON suggests takes two or three.
            k = Math.min(newestFirst.size(), Math.max(1, estimatedCount(newestFirst, bytes.length - maxBytes)));
        }
        int fewest = Math.max(1, beyondBound);
        Attempt attempt = leavingOut(newestFirst, k, partials, features, version, updatedAt, trainer);
        while (fits(attempt) && k > fewest) {
            Attempt fewer = leavingOut(newestFirst, k - 1, partials, features, version, updatedAt, trainer);
            if (!fits(fewer)) {
                break;
            }
            attempt = fewer;
            k--;
        }
        while (!fits(attempt) && k < newestFirst.size()) {
            k++;
            attempt = leavingOut(newestFirst, k, partials, features, version, updatedAt, trainer);
        }
        if (!fits(attempt)) {
            return tooLarge(attempt.bytes().length);
        }
        return new Ready(attempt.model(), attempt.bytes(), attempt.leftOut());
    }

    private TooLarge tooLarge(int bytes) {
        return new TooLarge("model '" + modelId + "' would be " + bytes + " bytes, over the record limit " + maxBytes
                + ", with only the classes it already published; not published");
    }

    /** A merge without some classes, and its bytes. */
    private record Attempt(ModelParameters model, byte[] bytes, SortedSet<String> leftOut) {
    }

    private Attempt leavingOut(List<ClassParameters> newestFirst, int count, Collection<PartialSnapshot> partials,
                               List<String> features, long version, String updatedAt, String trainer) {
        SortedSet<String> leftOut = new TreeSet<>();
        newestFirst.subList(0, count).forEach(c -> leftOut.add(c.label()));
        ModelParameters model = PartialMerge.model(partials, leftOut, features, modelId, version, updatedAt, trainer,
                forgetting);
        return new Attempt(model, SERIALIZER.serialize(null, model), Collections.unmodifiableSortedSet(leftOut));
    }

    private boolean fits(Attempt attempt) {
        return attempt.bytes().length <= maxBytes;
    }

    /**
     * How many of {@code newestFirst} to leave out so that their own JSON (each an element and a comma of the
     * classes array) adds up to {@code excess} bytes: an estimate (the priors of the rest and the category tables
     * change too).
     */
    private static int estimatedCount(List<ClassParameters> newestFirst, long excess) {
        int k = 0;
        while (excess > 0 && k < newestFirst.size()) {
            excess -= Json.toBytes(newestFirst.get(k)).length + 1L;
            k++;
        }
        return k;
    }
}
