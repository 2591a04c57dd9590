package io.gdastreams.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Structures that estimate each class's covariance from that class's scatter alone, Σ_k = f(S_k) / divisor(n_k),
 * and exclude a class on its own when it cannot be fitted.
 */
sealed interface PerClassCovariance extends CovarianceStructure permits FullCovariance, DiagonalCovariance {

    /** Σ_k before regularisation: a new d × d matrix from S_k (not modified) and the estimator's divisor. */
    double[][] estimate(double[][] scatter, double divisor);

    @Override
    default Optional<String> exclusion(ClassSummary c, Estimator estimator) {
        // Only UNBIASED can fail here: the MLE divisor is W, n_k ≥ minCount ≥ 1 unweighted.
        // Weighted, at one effective event the divisor is rounding noise of either sign, which divided a scatter of
        // noise into a covariance of noise (one weight in 25 made such a class win every point near it).
        if (c.isWeighted() ? estimator == Estimator.UNBIASED && !c.hasUnbiasedDivisor()
                : estimator.divisor(c.count(), 1) <= 0) {
            return Optional.of(c.isWeighted()
                    ? "unbiased covariance needs an effective sample size above 1, got " + c.effectiveSampleSize()
                    : "unbiased covariance needs a count of at least 2, got " + c.count());
        }
        return Optional.empty();
    }

    @Override
    default List<Fitted> fit(List<ClassSummary> candidates, Estimator estimator, Regularisation regularisation,
                             List<Exclusion> excluded) {
        List<Fitted> fitted = new ArrayList<>(candidates.size());
        for (ClassSummary c : candidates) {
            double divisor = estimator.divisor(c);
            Optional<Regularisation.Regularised> r = regularisation.apply(estimate(c.scatter(), divisor));
            if (r.isPresent()) {
                fitted.add(new Fitted(c, r.get()));
            } else {
                excluded.add(new Exclusion(c.label(), Regularisation.notPositiveDefinite()));
            }
        }
        return fitted;
    }
}
