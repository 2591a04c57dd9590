package io.gdastreams.topology;

import io.gdastreams.math.Evidence;
import io.gdastreams.model.Prediction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The parts of a scored prediction beyond the posterior ({@link PredictionExtras}), made from what
 * {@code math.Discriminant} computed, and bounded: a prediction repeats a feature name per imputed value and a label
 * per explained class, and both can be long, so neither list may grow with the model (README, "Size limits";
 * {@code ScoringOutputBoundTest} checks the largest prediction with every part on).
 */
final class PredictionDetails {

    /** Most imputed features a prediction lists. */
    static final int MAX_IMPUTED_FEATURES = 256;
    /**
     * Most characters of feature names the imputed map holds in all: names have no length limit of their own, and a
     * character may take up to 6 bytes of JSON (an escaped control character), so this keeps the map below 32 kB.
     */
    static final int MAX_IMPUTED_NAME_CHARS = 4096;
    /**
     * Most classes an explanation lists: the most probable of the listed ones. An explained class repeats its label
     * (up to 768 bytes) beside the probabilities' and the excluded map's copies; 32 of them add at most about 28 kB.
     */
    static final int MAX_EXPLAINED_CLASSES = 32;

    private PredictionDetails() {
    }

    /**
     * {@code prediction} with the imputed map of an event whose missing coordinates are NaN in {@code x}
     * ({@code completed}: their imputed values, {@code features}: the names in model order): the first missing
     * features in model order within the bounds, and how many more there are (null when none). Unchanged when
     * nothing is missing.
     */
    static Prediction withImputed(Prediction prediction, List<String> features, double[] x, double[] completed) {
        Map<String, Double> imputed = new LinkedHashMap<>();
        int others = 0;
        int chars = 0;
        for (int j = 0; j < x.length; j++) {
            if (!Double.isNaN(x[j])) {
                continue;
            }
            String name = features.get(j);
            if (others == 0 && imputed.size() < MAX_IMPUTED_FEATURES
                    && chars + name.length() <= MAX_IMPUTED_NAME_CHARS) {
                imputed.put(name, completed[j]);
                chars += name.length();
            } else {
                others++;
            }
        }
        if (imputed.isEmpty() && others == 0) {
            return prediction;
        }
        return prediction.withImputed(imputed.isEmpty() ? null : imputed, others == 0 ? null : others);
    }

    /**
     * The explanation of the classes of {@code labels} (model order) that are in {@code explained}, from
     * {@code evidence} (indices following {@code labels}).
     */
    static Prediction.Explanation explanation(List<String> labels, Evidence evidence, Set<String> explained) {
        Map<String, Prediction.ClassTerms> classes = new LinkedHashMap<>();
        for (int k = 0; k < labels.size(); k++) {
            String label = labels.get(k);
            if (explained.contains(label)) {
                classes.put(label, new Prediction.ClassTerms(evidence.logPriors()[k], evidence.logLikelihoods()[k],
                        evidence.squaredDistances()[k]));
            }
        }
        return new Prediction.Explanation(evidence.observed(), classes);
    }

    /**
     * The outlier flag: {@code logDensity < threshold} when a threshold is set, {@code tail < p} when p is set
     * (then {@code tail} is not null), true when either test says so; null when neither is set.
     */
    static Boolean outlier(double logDensity, OptionalDouble threshold, Double tail, OptionalDouble p) {
        Boolean byDensity = threshold.isPresent() ? logDensity < threshold.getAsDouble() : null;
        Boolean byTail = p.isPresent() ? tail < p.getAsDouble() : null;
        if (byDensity == null) {
            return byTail;
        }
        return byTail == null ? byDensity : byDensity || byTail;
    }
}
