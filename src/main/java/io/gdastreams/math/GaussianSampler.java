package io.gdastreams.math;

import java.util.random.RandomGenerator;

/**
 * Draws from the generative model: a class k ~ π, then x ~ N(μ_k, Σ_k) as μ_k + L_k z.
 *
 * <p>SKELETON: the public signatures are the contract; bodies are implemented in the math step.
 */
public final class GaussianSampler {

    public GaussianSampler(GaussianModel model) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** x ~ p(x | y = k); length d. */
    public double[] sample(int k, RandomGenerator random) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** A class index drawn from the priors. */
    public int sampleClass(RandomGenerator random) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
