package io.gdastreams.topology;

import io.gdastreams.math.CategoricalLikelihood;
import io.gdastreams.math.ClassSummary;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.EventDecoder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a published model back into the sufficient statistics the math core fits from, checking its shape on
 * the way: the model topic is input like any other and may carry anything.
 *
 * <p>The model carries the MLE covariance S_k / n_k, so the scatter is recovered as covariance × count
 * ({@link ClassSummary#ofMleCovariance}); every scorer variant (tied, diagonal, unbiased divisors) is then derived
 * from count, mean and scatter. This class only checks what a model from outside may get wrong.
 *
 * <p>Public for the {@code sample} command, which draws from a model read from a file or the model topic and so
 * must refuse the same malformed models the scorer refuses.
 */
public final class ModelConversion {

    /** Largest accepted |Σ_ij − Σ_ji| relative to √(Σ_ii·Σ_jj): rounding by a foreign publisher, not asymmetry. */
    static final double SYMMETRY_TOLERANCE = 1e-9;

    private ModelConversion() {
    }

    /**
     * Class statistics in model order. {@code model}: not modified. Throws IllegalArgumentException, with a
     * message fit for a log line, when the model is not well formed.
     */
    public static List<ClassSummary> classSummaries(ModelParameters model) {
        List<String> features = model.features();
        if (features == null || features.isEmpty()) {
            throw new IllegalArgumentException("model has no features");
        }
        Set<String> names = new HashSet<>();
        for (String name : features) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("model has a blank feature name");
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException("model lists feature '" + name + "' twice");
            }
        }
        List<ClassParameters> classes = model.classes();
        if (classes == null || classes.isEmpty()) {
            throw new IllegalArgumentException("model has no classes");
        }
        int d = features.size();
        Set<String> labels = new HashSet<>();
        List<ClassSummary> summaries = new ArrayList<>(classes.size());
        for (ClassParameters c : classes) {
            if (c == null || c.label() == null || c.label().isBlank()) {
                throw new IllegalArgumentException("model has a class without a label");
            }
            // The trainer's rules: a label beyond them (a foreign publisher) could push a prediction, which
            // repeats labels, past the broker's record limit.
            String problem = EventDecoder.labelProblem(c.label());
            if (problem != null) {
                throw new IllegalArgumentException("model has an invalid class label: " + problem);
            }
            if (!labels.add(c.label())) {
                throw new IllegalArgumentException("model lists class '" + c.label() + "' twice");
            }
            summaries.add(classSummary(c, d));
        }
        checkTotals(summaries);
        return summaries;
    }

    /**
     * The priors divide by the total count: past a long it wrapped. (The total weight cannot overflow: each class's
     * is below 1.4e154, or its square, V, would, which {@link #classSummary} refuses; a forged effectiveCount of
     * 1e308 was scored with every prior 0 and probabilities summing to 0.) No trainer gets near either.
     */
    private static void checkTotals(List<ClassSummary> summaries) {
        long count = 0;
        for (ClassSummary c : summaries) {
            try {
                count = Math.addExact(count, c.count());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("the counts of the model's classes sum past " + Long.MAX_VALUE);
            }
        }
    }

    /**
     * The category tables of {@code model} (checked as {@link #categoricalTables}) for the classes {@code labels} (a
     * subset of the model's, e.g. those a fit keeps), in their order, smoothed with {@code alpha}
     * ({@code gda.categorical.alpha}); null for a model without categorical features. V_j is the size of the model's
     * vocabulary of feature j, which counts the values of every class, kept or not ("any class"). The one place
     * where the scorer ({@code CompiledCategories}) and the {@code sample} command get θ_kjv. Throws
     * IllegalArgumentException when the model is not well formed or a class's θ is 0/0 (no observation, α = 0).
     */
    public static CategoricalLikelihood categoricalLikelihood(ModelParameters model, List<String> labels,
                                                              double alpha) {
        List<CategoricalTable> tables = categoricalTables(model);
        if (tables.isEmpty()) {
            return null;
        }
        Map<String, Integer> classIndex = new HashMap<>();
        for (int k = 0; k < model.classes().size(); k++) {
            classIndex.put(model.classes().get(k).label(), k);
        }
        double[][][] counts = new double[labels.size()][tables.size()][];
        for (int k = 0; k < labels.size(); k++) {
            Integer modelClass = classIndex.get(labels.get(k));
            if (modelClass == null) {
                throw new IllegalArgumentException("model has no class '" + labels.get(k) + "'");
            }
            for (int j = 0; j < tables.size(); j++) {
                counts[k][j] = tables.get(j).weightsOf(modelClass); // the counts when unweighted
            }
        }
        return CategoricalLikelihood.of(tables.stream().map(CategoricalTable::feature).toList(),
                tables.stream().map(CategoricalTable::values).toList(), counts, alpha);
    }

    /**
     * The category tables of {@code model}, checked (its classes are checked by {@link #classSummaries}): distinct
     * feature names that are not continuous features, distinct values by the decoder's rules, per class one count
     * per value, none negative, summing to the class's count (every training event has a value of every feature).
     * Throws IllegalArgumentException with a message fit for a log line.
     */
    static List<CategoricalTable> categoricalTables(ModelParameters model) {
        List<CategoricalTable> tables = model.categorical() == null ? List.of() : model.categorical();
        Set<String> names = new HashSet<>(model.features());
        List<ClassParameters> classes = model.classes();
        for (CategoricalTable table : tables) {
            String feature = table.feature();
            if (feature == null || feature.isBlank()) {
                throw new IllegalArgumentException("model has a blank categorical feature name");
            }
            if (!names.add(feature)) {
                throw new IllegalArgumentException("model lists feature '" + feature + "' twice");
            }
            // The label's rules: a prediction names the feature (unseenValues), so its size bound hangs on them.
            String nameProblem = EventDecoder.labelProblem(feature);
            if (nameProblem != null) {
                throw new IllegalArgumentException("model has an invalid categorical feature name: "
                        + nameProblem.replace("label", "name"));
            }
            String where = "categorical feature '" + feature + "': ";
            if (table.values() == null || table.values().isEmpty()) {
                throw new IllegalArgumentException(where + "no value");
            }
            if (new HashSet<>(table.values()).size() != table.values().size()) {
                throw new IllegalArgumentException(where + "a value is listed twice");
            }
            for (String value : table.values()) {
                String problem = value.isEmpty() ? null : EventDecoder.labelProblem(value);
                if (problem != null && !problem.equals("label is blank")) {
                    throw new IllegalArgumentException(where + "invalid value: " + problem.replace("label", "value"));
                }
            }
            if (table.counts() == null || table.counts().size() != classes.size()) {
                throw new IllegalArgumentException(where + "counts must have one row per class (" + classes.size()
                        + ")");
            }
            for (int k = 0; k < classes.size(); k++) {
                long[] row = table.counts().get(k);
                if (row.length != table.values().size()) {
                    throw new IllegalArgumentException(where + "class '" + classes.get(k).label() + "' has "
                            + row.length + " counts for " + table.values().size() + " values");
                }
                long sum = 0;
                for (long c : row) {
                    if (c < 0) {
                        throw new IllegalArgumentException(where + "negative count " + c);
                    }
                    sum = Math.addExact(sum, c);
                }
                if (sum != classes.get(k).count()) {
                    throw new IllegalArgumentException(where + "the counts of class '" + classes.get(k).label()
                            + "' sum to " + sum + ", not its count " + classes.get(k).count());
                }
                if (table.weights() != null) {
                    double[] w = table.weights().size() == classes.size() ? table.weights().get(k) : null;
                    if (w == null || w.length != row.length) {
                        throw new IllegalArgumentException(where + "weights must have the shape of the counts");
                    }
                    for (double x : w) {
                        if (!(x >= 0) || !Double.isFinite(x)) {
                            throw new IllegalArgumentException(where + "weight " + x + " is not finite and >= 0");
                        }
                    }
                }
            }
        }
        return tables;
    }

    private static ClassSummary classSummary(ClassParameters c, int d) {
        String where = "class '" + c.label() + "': ";
        if (c.count() < 0) {
            throw new IllegalArgumentException(where + "negative count " + c.count());
        }
        double[] mean = c.mean();
        if (mean == null || mean.length != d) {
            throw new IllegalArgumentException(where + "mean must have " + d + " values");
        }
        double[][] covariance = c.covariance();
        if (covariance == null || covariance.length != d) {
            throw new IllegalArgumentException(where + "covariance must be " + d + " x " + d);
        }
        for (int i = 0; i < d; i++) {
            if (!Double.isFinite(mean[i])) {
                throw new IllegalArgumentException(where + "non-finite mean");
            }
            if (covariance[i] == null || covariance[i].length != d) {
                throw new IllegalArgumentException(where + "covariance must be " + d + " x " + d);
            }
        }
        ClassSummary summary;
        if (c.carriesWeights()) {
            double w = c.effectiveCount();
            double ess = c.effectiveSampleSize();
            if (!(Double.isFinite(w) && w >= 0 && Double.isFinite(ess) && ess >= 0)) {
                throw new IllegalArgumentException(where + "effectiveCount and effectiveSampleSize must be finite"
                        + " and >= 0");
            }
            // V = W²/n_eff; a class of no weight (or no effective sample) has V = 0 and is excluded by the fit.
            double squaredWeights = ess > 0 ? w * w / ess : 0.0;
            if (!Double.isFinite(squaredWeights)) {
                throw new IllegalArgumentException(where + "effectiveCount " + w + " is too large (its square"
                        + " overflows)");
            }
            summary = ClassSummary.ofMleCovariance(c.label(), c.count(), mean.clone(), covariance, w,
                    squaredWeights);
        } else {
            summary = ClassSummary.ofMleCovariance(c.label(), c.count(), mean.clone(), covariance);
        }
        double[][] scatter = summary.scatter();
        for (double[] row : scatter) {
            for (double s : row) {
                if (!Double.isFinite(s)) { // also a finite covariance times a large count
                    throw new IllegalArgumentException(where + "non-finite covariance");
                }
            }
        }
        for (int i = 0; i < d; i++) {
            // A trainer's variances are sums of squares: a negative one was not published by a trainer.
            if (covariance[i][i] < 0) { // not the scatter: a class of count 0 has a scatter of zeros
                throw new IllegalArgumentException(where + "negative variance " + covariance[i][i] + " of feature "
                        + i);
            }
        }
        // The Cholesky factorisation reads one triangle only: an asymmetric matrix would be scored as something
        // other than what was published. Within rounding, the two triangles are averaged.
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double a = scatter[i][j];
                double b = scatter[j][i];
                if (Math.abs(a - b) > SYMMETRY_TOLERANCE * Math.sqrt(Math.abs(scatter[i][i] * scatter[j][j]))) {
                    throw new IllegalArgumentException(where + "covariance is not symmetric at (" + i + ", " + j
                            + "): " + covariance[i][j] + " vs " + covariance[j][i]);
                }
                scatter[i][j] = scatter[j][i] = 0.5 * (a + b);
            }
        }
        return summary;
    }
}
