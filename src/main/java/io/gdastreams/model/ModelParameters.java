package io.gdastreams.model;

import io.gdastreams.math.RunningGaussian;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A versioned model as published on the compacted model topic (key = modelId). {@code (modelId, version)} is an
 * identity: a trainer never publishes two different contents under one version.
 *
 * @param sources lineage: source partition (as a string) → next offset of that partition absorbed by this model
 * @param updatedAt ISO-8601 instant of publication
 * @param trainer the application id of the training application that published it (empty in models built
 *                outside a trainer); a trainer compares its state with the lineage of the models it published
 *                itself
 */
public record ModelParameters(String modelId, long version, List<String> features, long totalCount,
                              List<ClassParameters> classes, Map<String, Long> sources, String updatedAt,
                              String trainer) {

    /** A model built outside a trainer (fixtures, tools): {@code trainer} is empty. */
    public ModelParameters(String modelId, long version, List<String> features, long totalCount,
                           List<ClassParameters> classes, Map<String, Long> sources, String updatedAt) {
        this(modelId, version, features, totalCount, classes, sources, updatedAt, "");
    }

    /**
     * The model of class statistics, as a trainer publishes it: the classes in {@code classes} order, each with
     * count, prior and MLE covariance ({@link ClassParameters#of}); the total count is the sum of the class counts.
     * {@code classes}: not modified.
     */
    public static ModelParameters ofStatistics(String modelId, long version, List<String> features,
                                               Map<String, RunningGaussian> classes, Map<String, Long> sources,
                                               String updatedAt, String trainer) {
        long total = 0;
        for (RunningGaussian g : classes.values()) {
            total += g.count();
        }
        List<ClassParameters> parameters = new ArrayList<>(classes.size());
        for (Map.Entry<String, RunningGaussian> entry : classes.entrySet()) {
            parameters.add(ClassParameters.of(entry.getKey(), entry.getValue(), total));
        }
        return new ModelParameters(modelId, version, features, total, parameters, sources, updatedAt, trainer);
    }
}
