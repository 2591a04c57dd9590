package io.gdastreams.math;

/**
 * Why a point got its posterior: the terms of log p(k | x) = log π_k + log N_k(x) − log p(x) per class, over the
 * observed coordinates O of x (the marginal Gaussian of x_O, as everywhere in scoring). Indices follow
 * {@link Discriminant#labels()}. Every value is finite: an overflowed distance is reported as
 * {@link Double#MAX_VALUE}, its log-likelihood as −{@link Double#MAX_VALUE}.
 *
 * @param posterior          the point's posterior, exactly as {@link Discriminant#score} gives it
 * @param observed           |O|, the number of observed coordinates: the degrees of freedom of D²_k
 * @param logPriors          log π_k
 * @param logLikelihoods     log N_k(x) = log N(x_O; μ_k,O, Σ_k,OO) = −½(|O|·log 2π + log det Σ_k,OO + D²_k)
 * @param squaredDistances   D²_k = (x_O − μ_k,O)ᵀ Σ_k,OO⁻¹ (x_O − μ_k,O), the squared Mahalanobis distance
 */
public record Evidence(Posterior posterior, int observed, double[] logPriors, double[] logLikelihoods,
                       double[] squaredDistances) {

    /**
     * P(χ²_|O| ≥ min_k D²_k) = max_k P(χ²_|O| ≥ D²_k): how improbable the point is under the class it is least
     * improbable under. If x comes from class j of the model, D²_j ~ χ²(|O|) and P(χ² ≥ D²_j) is uniform on
     * [0, 1]; this value is at least that one, so "tail &lt; p" flags at most a fraction p of the points the model
     * describes, whatever the class. Taking the most probable class instead gives no such guarantee (a wide class
     * can win a point that lies far out in the units of a tight one). 1 when nothing is observed.
     */
    public double tailProbability() {
        double nearest = Double.POSITIVE_INFINITY;
        for (double q : squaredDistances) {
            nearest = Math.min(nearest, q);
        }
        return squaredDistances.length == 0 ? 1.0 : ChiSquare.survival(observed, nearest);
    }
}
