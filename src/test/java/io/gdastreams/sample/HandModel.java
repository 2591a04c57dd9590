package io.gdastreams.sample;

import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A model written by hand for the sampling tests: three classes in d = 4 with unequal, correlated covariances and
 * unequal priors (counts 20, 30, 50). Its parameters are the reference the refits are checked against; the
 * expected covariance of each covariance type is computed from them with the README's formulas, not by our fit.
 */
final class HandModel {

    static final String ID = "hand";
    static final List<String> FEATURES = List.of("f0", "f1", "f2", "f3");
    static final List<String> LABELS = List.of("a", "b", "c");
    static final long[] COUNTS = {20, 30, 50};
    static final double[][] MEANS = {{1, -1, 0, 100}, {0, 2, -3, 100.5}, {-4, 0, 1, 99}};
    /** Positive definite (smallest eigenvalues 1.19, 0.58, 0.23). */
    static final double[][][] COVARIANCES = {
            {{4, 2, -1, 0.5}, {2, 10, 3, 0}, {-1, 3, 6, 1}, {0.5, 0, 1, 2}},
            {{1, -0.3, 0, 0}, {-0.3, 2, 0.5, 0}, {0, 0.5, 1.5, -0.4}, {0, 0, -0.4, 0.8}},
            {{9, 0, 2, 1}, {0, 0.25, 0, 0.1}, {2, 0, 3, 0}, {1, 0.1, 0, 1}}};

    /** The categorical features of {@link #categoricalModel()}: a three-valued one and a Bernoulli 0/1 one. */
    static final List<String> CATEGORICAL = List.of("colour", "flag");
    static final List<List<String>> VALUES = List.of(List.of("blue", "green", "red"), List.of("false", "true"));
    /**
     * n_kjv, [class][feature][value], each row summing to the class's count. Class a never had "red": under α = 0
     * it never draws it.
     */
    static final long[][][] CATEGORY_COUNTS = {
            {{12, 8, 0}, {5, 15}},
            {{3, 9, 18}, {27, 3}},
            {{10, 10, 30}, {25, 25}}};

    private HandModel() {
    }

    /** {@link #model()} with the category tables of {@link #CATEGORY_COUNTS}. */
    static ModelParameters categoricalModel() {
        List<CategoricalTable> tables = new ArrayList<>();
        for (int j = 0; j < CATEGORICAL.size(); j++) {
            List<long[]> counts = new ArrayList<>();
            for (int k = 0; k < LABELS.size(); k++) {
                counts.add(CATEGORY_COUNTS[k][j].clone());
            }
            tables.add(new CategoricalTable(CATEGORICAL.get(j), VALUES.get(j), counts));
        }
        return model().withCategorical(tables);
    }

    /** θ_kjv = (n_kjv + α) / (n_k + α·V_j), the README's smoothing, from the hand counts. */
    static double theta(int k, int j, int v, double alpha) {
        return (CATEGORY_COUNTS[k][j][v] + alpha) / (COUNTS[k] + alpha * VALUES.get(j).size());
    }

    static ModelParameters model() {
        long total = 0;
        for (long c : COUNTS) {
            total += c;
        }
        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k < LABELS.size(); k++) {
            classes.add(new ClassParameters(LABELS.get(k), COUNTS[k], (double) COUNTS[k] / total, MEANS[k].clone(),
                    COVARIANCES[k]));
        }
        return new ModelParameters(ID, 3, FEATURES, total, classes, Map.of("0", total), "2026-11-25T10:00:00Z");
    }

    static double prior(int k) {
        return (double) COUNTS[k] / (COUNTS[0] + COUNTS[1] + COUNTS[2]);
    }

    /** tied, MLE: Σ = Σ_k S_k / n = Σ_k n_k Σ_k / n. */
    static double[][] pooled() {
        double[][] pooled = new double[4][4];
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    pooled[i][j] += prior(k) * COVARIANCES[k][i][j];
                }
            }
        }
        return pooled;
    }

    /** diag: the diagonal of Σ_k, zeros elsewhere. */
    static double[][] diagonal(int k) {
        double[][] d = new double[4][4];
        for (int i = 0; i < 4; i++) {
            d[i][i] = COVARIANCES[k][i][i];
        }
        return d;
    }

    /** full, unbiased: S_k / (n_k − 1) = Σ_k · n_k / (n_k − 1). */
    static double[][] unbiased(int k) {
        double[][] u = new double[4][4];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                u[i][j] = COVARIANCES[k][i][j] * COUNTS[k] / (COUNTS[k] - 1);
            }
        }
        return u;
    }
}
