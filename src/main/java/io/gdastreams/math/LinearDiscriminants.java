package io.gdastreams.math;

/**
 * LDA's linear form: δ_k(x) = β_kᵀx + γ_k with β_k = Σ⁻¹μ_k and γ_k = −½ μ_kᵀΣ⁻¹μ_k + log π_k.
 *
 * @param beta  K × d
 * @param gamma length K
 */
public record LinearDiscriminants(double[][] beta, double[] gamma) {
}
