package io.gdastreams.topology;

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
 * ({@link ModelParameters#ofStatistics}); lineage = each snapshot's next offset.
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
        Map<String, Long> sources = new LinkedHashMap<>();
        for (PartialSnapshot partial : partials) {
            sources.put(Integer.toString(partial.progress().partition()), partial.progress().nextOffset());
        }
        return ModelParameters.ofStatistics(modelId, version, features,
                PooledClasses.of(partials.stream().map(PartialSnapshot::classes).toList(),
                        label -> !leftOut.contains(label)),
                sources, updatedAt, trainer);
    }
}
