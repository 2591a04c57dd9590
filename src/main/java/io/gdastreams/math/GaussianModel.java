package io.gdastreams.math;

import java.util.List;

/**
 * Gaussian class-conditional parameters fitted from class statistics: priors, means and the effective
 * covariance per class after the estimator, shrinkage, variance floor and (last resort) jitter.
 *
 * <p>SKELETON: the public signatures are the contract; bodies are implemented in the math step. Immutable;
 * getters return copies. Only included classes appear in labels/priors/means/covariances; priors are
 * renormalised over the included classes.
 */
public final class GaussianModel {

    private GaussianModel() {
    }

    /** Fits a model. {@code classes}: not modified; any order (labels keep input order). */
    public static GaussianModel fit(List<ClassSummary> classes, FitOptions options) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public FitOptions options() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public int dimension() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Labels of the classes that take part in scoring, in input order. */
    public List<String> labels() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public long[] counts() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public double[] priors() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** K × d. */
    public double[][] means() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Effective covariance of class k (d × d; for TIED the pooled matrix; for DIAG a diagonal matrix). */
    public double[][] covariance(int k) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Classes left out of scoring, with reasons. */
    public List<Exclusion> excluded() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Jitter added to the diagonal of class k's covariance as a last resort (0 when none was needed). */
    public double jitter(int k) {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
