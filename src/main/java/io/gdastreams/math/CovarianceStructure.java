package io.gdastreams.math;

import java.util.List;
import java.util.Optional;

/**
 * What a {@link CovarianceType} means, end to end: how class statistics become covariances (the estimator), what
 * is precomputed from the fitted model (the compiled form) and how a point is scored against it. The type is
 * switched on once ({@link CovarianceType#structure()}); from there on every step is a call on the structure, so a
 * new kind of class-conditional model is a new case here, not a new branch in the fit or the scorer.
 *
 * <p>The steps every structure shares (exclusion below the minimum count, priors, shrinkage, variance floor,
 * jitter, the posterior) stay in {@link GaussianModel}, {@link Regularisation} and {@link Discriminant}.
 */
sealed interface CovarianceStructure permits PerClassCovariance, TiedCovariance {

    /**
     * Why class {@code c} (which passed the minimum count) cannot be fitted under {@code estimator} on its own,
     * or empty. Checked class by class, in input order, before {@link #fit}.
     */
    Optional<String> exclusion(ClassSummary c, Estimator estimator);

    /**
     * The estimator (rule 3 of {@link GaussianModel}) followed by {@code regularisation}: the fitted classes in
     * {@code candidates} order. A candidate that cannot be fitted is added to {@code excluded} with the reason.
     */
    List<Fitted> fit(List<ClassSummary> candidates, Estimator estimator, Regularisation regularisation,
                     List<Exclusion> excluded);

    /** The compiled form of {@code model} (fitted with this structure) with its log priors (not copied). */
    CompiledCovariance compile(GaussianModel model, double[] logPriors);

    /** A class that takes part in scoring, with its regularised covariance (shared by every class for TIED). */
    record Fitted(ClassSummary summary, Regularisation.Regularised fit) {
    }
}
