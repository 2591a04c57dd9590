package io.gdastreams.math;

/**
 * The result of scoring one point against a compiled model. Indices follow {@link Discriminant#labels()}.
 *
 * @param predicted     index of the most probable class
 * @param probabilities p(y=k | x), sums to 1
 * @param logJoint      log π_k + log N(x; μ_k, Σ_k) (over the observed coordinates)
 * @param logDensity    log p(x) = logsumexp(logJoint), an outlier score
 */
public record Posterior(int predicted, double[] probabilities, double[] logJoint, double logDensity) {
}
