package io.gdastreams.topology;

import io.gdastreams.math.ClassSummary;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * When the first model of a new reset generation may be published ({@code gda.drift.action=reset}; docs/TRAINING.md,
 * "Drift detection"): once every class has {@code gda.min.count} again, that is every class of the last published
 * model and every class of the new statistics has an effective sample size (the count without weights) of at least
 * the minimum. Until then the scorers keep the last published model: a model that would leave out a class the
 * scorers had, or score one from a handful of events, is not better than the old one. Pure decision, no Kafka.
 *
 * @param modelId  the model the combiner builds
 * @param minCount the scorer's {@code gda.min.count}
 */
record ResetGate(String modelId, long minCount) {

    /**
     * Why {@code candidate} must wait, or null when it may be published: only a candidate of a newer generation
     * than {@code last} (null before the first model) waits.
     */
    String holdReason(ModelParameters candidate, PublishedModel last) {
        long lastGeneration = last == null ? 0 : last.generation();
        if (candidate.resetGeneration() <= lastGeneration) {
            return null;
        }
        if (candidate.classes().isEmpty()) {
            return "model '" + modelId + "' waits for reset generation " + candidate.resetGeneration()
                    + ": no event of it yet";
        }
        Map<String, Double> sizes = new TreeMap<>();
        for (ClassParameters c : candidate.classes()) {
            sizes.put(c.label(), c.sampleSize());
        }
        Set<String> labels = new TreeSet<>(sizes.keySet());
        if (last != null) {
            labels.addAll(last.labels());
        }
        Map<String, Double> short_ = new TreeMap<>();
        for (String label : labels) {
            double size = sizes.getOrDefault(label, 0.0);
            if (!ClassSummary.reaches(size, minCount)) {
                short_.put(label, size);
            }
        }
        if (short_.isEmpty()) {
            return null;
        }
        return "model '" + modelId + "' waits for reset generation " + candidate.resetGeneration() + ": classes "
                + short_ + " (effective sample sizes) are below gda.min.count = " + minCount
                + (last == null ? "" : "; scorers keep version " + last.version());
    }
}
