package io.gdastreams.topology;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.Forgetting;
import io.gdastreams.math.PooledClasses;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The model of a set of partition snapshots: per class the Chan merge of its partition statistics
 * ({@link PooledClasses}), published with count, prior n_k/n, mean and MLE covariance S_k/n_k
 * ({@link ModelParameters#ofStatistics}); per class the sum of the partitions' category counts, as the model's
 * category tables; lineage = each snapshot's next offset.
 */
final class PartialMerge {

    private PartialMerge() {
    }

    /**
     * @param partials the newest snapshot of each partition (not modified)
     * @param leftOut labels to leave out (their events count in no class; priors are over the rest)
     */
    static ModelParameters model(Collection<PartialSnapshot> partials, Set<String> leftOut, List<String> features,
                                 String modelId, long version, String updatedAt, String trainer) {
        return model(partials, leftOut, features, modelId, version, updatedAt, trainer, null);
    }

    /**
     * As {@link #model(Collection, Set, List, String, long, String, String)} under {@code forgetting} (null: none):
     * every class of every partition is first advanced to the latest reference time among them, then merged
     * ({@link PooledClasses#of(Iterable, java.util.function.Predicate, Forgetting)}).
     */
    static ModelParameters model(Collection<PartialSnapshot> partials, Set<String> leftOut, List<String> features,
                                 String modelId, long version, String updatedAt, String trainer,
                                 Forgetting forgetting) {
        Map<String, Long> sources = new LinkedHashMap<>();
        for (PartialSnapshot partial : partials) {
            sources.put(Integer.toString(partial.progress().partition()), partial.progress().nextOffset());
        }
        long generation = newestGeneration(partials);
        List<PartialSnapshot> current = partials.stream()
                .filter(p -> p.generation().number() == generation).toList();
        var classes = PooledClasses.of(current.stream().map(PartialSnapshot::classes).toList(),
                label -> !leftOut.contains(label), forgetting);
        // Counts add exactly: the pooled counts are those of all the partitions' events.
        var categories = CategoryCounts.pooled(current.stream().map(PartialSnapshot::categories).toList(),
                label -> !leftOut.contains(label), forgetting);
        List<String> categoricalFeatures = categories.isEmpty() ? List.of()
                : categories.values().iterator().next().features();
        return ModelParameters.ofStatistics(modelId, version, features, classes, categoricalFeatures, categories,
                sources, updatedAt, trainer).withReset(generation, dropped(partials, generation))
                .withLeftOut(leftOutEvents(current, leftOut));
    }

    /** The applied events (count + 2·retractions, as the model counts them) of the {@code leftOut} classes. */
    private static long leftOutEvents(List<PartialSnapshot> current, Set<String> leftOut) {
        long events = 0;
        for (PartialSnapshot partial : current) {
            for (var entry : partial.classes().entrySet()) {
                if (leftOut.contains(entry.getKey())) {
                    events += entry.getValue().count() + 2 * entry.getValue().retractions();
                }
            }
        }
        return events;
    }

    /**
     * The applied events of {@code partials} that resets dropped: those of the partitions still in an older
     * generation than {@code generation}, and those the partitions of {@code generation} dropped when they took it up.
     */
    static long dropped(Collection<PartialSnapshot> partials, long generation) {
        long dropped = 0;
        for (PartialSnapshot p : partials) {
            dropped += p.generation().number() == generation ? p.generation().dropped() : p.progress().applied();
        }
        return dropped;
    }

    /** The highest reset generation among {@code partials} (0 for none). */
    static long newestGeneration(Collection<PartialSnapshot> partials) {
        return partials.stream().mapToLong(p -> p.generation().number()).max().orElse(0);
    }
}
