package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The model of a set of partition snapshots: per class the Chan merge of its partition statistics, count, prior
 * n_k/n, mean and MLE covariance S_k/n_k; lineage = each snapshot's next offset.
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
        SortedMap<String, RunningGaussian> merged = new TreeMap<>();
        Map<String, Long> sources = new LinkedHashMap<>();
        for (PartialSnapshot partial : partials) {
            sources.put(Integer.toString(partial.progress().partition()), partial.progress().nextOffset());
            for (Map.Entry<String, RunningGaussian> entry : partial.classes().entrySet()) {
                if (leftOut.contains(entry.getKey())) {
                    continue;
                }
                merged.computeIfAbsent(entry.getKey(), l -> new RunningGaussian(entry.getValue().dimension()))
                        .merge(entry.getValue());
            }
        }
        long total = 0;
        for (RunningGaussian g : merged.values()) {
            total += g.count();
        }
        List<ClassParameters> classes = new ArrayList<>(merged.size());
        for (Map.Entry<String, RunningGaussian> entry : merged.entrySet()) {
            RunningGaussian g = entry.getValue();
            double[][] covariance = g.scatter();
            for (double[] row : covariance) {
                for (int j = 0; j < row.length; j++) {
                    row[j] /= g.count();
                }
            }
            classes.add(new ClassParameters(entry.getKey(), g.count(), (double) g.count() / total, g.mean(),
                    covariance));
        }
        return new ModelParameters(modelId, version, features, total, classes, sources, updatedAt, trainer);
    }
}
