package io.gdastreams.model;

import io.gdastreams.math.CategoryCounts;
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
 * @param features the continuous features, the Gaussian part's coordinates in order
 * @param categorical the category tables of the categorical features, one per feature in model order (their names
 *                    are not in {@code features}); empty for a Gaussian model, and then left out of the JSON, so that
 *                    a model without categorical features reads and writes as before
 * @param retracted the retractions its classes absorbed (each an applied event that took one observation away, so
 *                  {@link #eventsAbsorbed()} = totalCount + 2·retracted never shrinks while the counts may); 0, and
 *                  then left out of the JSON, for a model without retractions
 * @param resetGeneration the reset generation of its statistics ({@code gda.drift.action=reset}; docs/TRAINING.md,
 *                        "Drift detection"): 0, and then left out of the JSON, before any reset; a model of a higher
 *                        generation than the one before it starts afresh, so its counts may be lower
 * @param resetDropped the applied events its lineage covers that resets dropped (those of older generations), so
 *                     that {@link #eventsAbsorbed()} never shrinks across a reset; 0, and then left out, before any
 * @param leftOut the applied events (count + 2·retractions) of the classes this version leaves out to stay within the
 *                record size bound (docs/TRAINING.md, "Model size"), so that every event its lineage applied is
 *                counted somewhere; 0, and then left out of the JSON, when it leaves none out
 */
public record ModelParameters(String modelId, long version, List<String> features, long totalCount,
                              List<ClassParameters> classes, Map<String, Long> sources, String updatedAt,
                              String trainer, List<CategoricalTable> categorical, long retracted,
                              long resetGeneration, long resetDropped, long leftOut) {

    /** A model that leaves no class out. */
    public ModelParameters(String modelId, long version, List<String> features, long totalCount,
                           List<ClassParameters> classes, Map<String, Long> sources, String updatedAt,
                           String trainer, List<CategoricalTable> categorical, long retracted,
                           long resetGeneration, long resetDropped) {
        this(modelId, version, features, totalCount, classes, sources, updatedAt, trainer, categorical, retracted,
                resetGeneration, resetDropped, 0L);
    }

    /** A model of generation 0 (no reset). */
    public ModelParameters(String modelId, long version, List<String> features, long totalCount,
                           List<ClassParameters> classes, Map<String, Long> sources, String updatedAt,
                           String trainer, List<CategoricalTable> categorical, long retracted) {
        this(modelId, version, features, totalCount, classes, sources, updatedAt, trainer, categorical, retracted, 0L,
                0L);
    }

    /** A model without retractions. */
    public ModelParameters(String modelId, long version, List<String> features, long totalCount,
                           List<ClassParameters> classes, Map<String, Long> sources, String updatedAt,
                           String trainer, List<CategoricalTable> categorical) {
        this(modelId, version, features, totalCount, classes, sources, updatedAt, trainer, categorical, 0L);
    }

    /**
     * The labelled events its lineage applied: totalCount + 2·retracted + resetDropped + leftOut (what its classes
     * absorbed, what resets dropped, and what the classes it left out hold).
     */
    public long eventsAbsorbed() {
        return totalCount + 2 * retracted + resetDropped + leftOut;
    }

    /** A model without categorical features. */
    public ModelParameters(String modelId, long version, List<String> features, long totalCount,
                           List<ClassParameters> classes, Map<String, Long> sources, String updatedAt,
                           String trainer) {
        this(modelId, version, features, totalCount, classes, sources, updatedAt, trainer, List.of());
    }

    /** A model built outside a trainer (fixtures, tools): {@code trainer} is empty. */
    public ModelParameters(String modelId, long version, List<String> features, long totalCount,
                           List<ClassParameters> classes, Map<String, Long> sources, String updatedAt) {
        this(modelId, version, features, totalCount, classes, sources, updatedAt, "");
    }

    /**
     * The model of class statistics, as a trainer publishes it: the classes in {@code classes} order, each with
     * count, prior and MLE covariance ({@link ClassParameters#of}, or {@link ClassParameters#ofWeighted} for all
     * classes when any is weighted); the total count is the sum of the class counts.
     * {@code classes}: not modified.
     */
    public static ModelParameters ofStatistics(String modelId, long version, List<String> features,
                                               Map<String, RunningGaussian> classes, Map<String, Long> sources,
                                               String updatedAt, String trainer) {
        long total = 0;
        long retracted = 0;
        double totalWeight = 0;
        boolean weighted = false;
        for (RunningGaussian g : classes.values()) {
            total += g.count();
            retracted += g.retractions();
            totalWeight += g.weight();
            weighted |= g.isWeighted();
        }
        List<ClassParameters> parameters = new ArrayList<>(classes.size());
        for (Map.Entry<String, RunningGaussian> entry : classes.entrySet()) {
            // Weighted statistics (weights, retractions, forgetting): priors W_k / ΣW and the effective counts.
            parameters.add(weighted ? ClassParameters.ofWeighted(entry.getKey(), entry.getValue(), totalWeight)
                    : ClassParameters.of(entry.getKey(), entry.getValue(), total));
        }
        return new ModelParameters(modelId, version, features, total, parameters, sources, updatedAt, trainer,
                List.of(), retracted);
    }

    /**
     * As {@link #ofStatistics(String, long, List, Map, Map, String, String)}, with the category tables of the
     * {@code categoricalFeatures} from {@code categories} (label → counts, for the same labels as {@code classes};
     * none when {@code categoricalFeatures} is empty). Not modified.
     */
    public static ModelParameters ofStatistics(String modelId, long version, List<String> features,
                                               Map<String, RunningGaussian> classes, List<String> categoricalFeatures,
                                               Map<String, CategoryCounts> categories, Map<String, Long> sources,
                                               String updatedAt, String trainer) {
        ModelParameters gaussian = ofStatistics(modelId, version, features, classes, sources, updatedAt, trainer);
        if (categoricalFeatures.isEmpty() || classes.isEmpty()) {
            return gaussian;
        }
        return gaussian.withCategorical(CategoricalTable.of(categoricalFeatures, List.copyOf(classes.keySet()),
                categories));
    }

    /** This model with {@code tables} as its category tables. */
    public ModelParameters withCategorical(List<CategoricalTable> tables) {
        return new ModelParameters(modelId, version, features, totalCount, classes, sources, updatedAt, trainer,
                tables, retracted, resetGeneration, resetDropped, leftOut);
    }

    /** This model as one of reset generation {@code generation}, whose lineage's resets dropped {@code dropped}. */
    public ModelParameters withReset(long generation, long dropped) {
        return new ModelParameters(modelId, version, features, totalCount, classes, sources, updatedAt, trainer,
                categorical, retracted, generation, dropped, leftOut);
    }

    /** This model with {@code events} applied events in the classes it leaves out (docs/TRAINING.md, "Model size"). */
    public ModelParameters withLeftOut(long events) {
        return new ModelParameters(modelId, version, features, totalCount, classes, sources, updatedAt, trainer,
                categorical, retracted, resetGeneration, resetDropped, events);
    }

    /**
     * This model published again: the same content and lineage (classes, counts, sources, category tables,
     * retractions, reset generation and dropped events: every other component, through the canonical constructor,
     * so that none is left to a convenience constructor's default) under {@code version}, published at
     * {@code updatedAt} by {@code trainer}.
     */
    public ModelParameters republished(long version, String updatedAt, String trainer) {
        return new ModelParameters(modelId, version, features, totalCount, classes, sources, updatedAt, trainer,
                categorical, retracted, resetGeneration, resetDropped, leftOut);
    }

    /** The categorical feature names in model order (empty for a Gaussian model). */
    /** Whether this is a model a trainer publishes under {@code modelId}: that id, a version from 1, a lineage. */
    public boolean isPublishedAs(String modelId) {
        return modelId.equals(modelId()) && version() >= 1 && sources() != null;
    }

    public List<String> categoricalFeatures() {
        return categorical == null ? List.of() : categorical.stream().map(CategoricalTable::feature).toList();
    }
}
