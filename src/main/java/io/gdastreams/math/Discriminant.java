package io.gdastreams.math;

import java.util.List;
import java.util.Optional;

/**
 * A model compiled for scoring: Cholesky factors, log-determinants and log priors computed once per model
 * version; per point only triangular solves. Immutable and safe to share between threads.
 *
 * <p>SKELETON: the public signatures are the contract; bodies are implemented in the math step.
 */
public final class Discriminant {

    private Discriminant() {
    }

    public static Discriminant compile(GaussianModel model) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Labels of the scored classes (may be empty when every class is excluded). */
    public List<String> labels() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public int dimension() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /**
     * Posterior of one point. {@code x}: length d, not modified; a NaN entry marks a missing feature, which is
     * marginalised out (all missing gives the priors). Throws IllegalStateException when labels() is empty.
     */
    public Posterior score(double[] x) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** β_k, γ_k for a TIED model; empty otherwise. */
    public Optional<LinearDiscriminants> linear() {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
