package io.gdastreams.math;

/**
 * QDA: one full covariance per class, Σ_k = S_k / n_k (UNBIASED: n_k − 1). Scoring costs one O(d²) triangular
 * product with the precomputed L_k⁻¹ per class; a point with missing coordinates is scored against the factors of
 * the observed sub-matrices ({@link MarginalFactors}).
 */
final class FullCovariance implements PerClassCovariance {

    @Override
    public double[][] estimate(double[][] scatter, double divisor) {
        double[][] cov = new double[scatter.length][];
        for (int i = 0; i < scatter.length; i++) {
            cov[i] = scatter[i].clone();
            for (int j = 0; j < cov[i].length; j++) {
                cov[i][j] /= divisor;
            }
        }
        return cov;
    }

    @Override
    public CompiledCovariance compile(GaussianModel model, double[] logPriors) {
        return new Compiled(model, logPriors);
    }

    /**
     * Every class's L_k⁻¹ ({@link TriangularKernel}, one block per class in one array), its mean and ½ log det Σ_k;
     * the factors of sub-matrices for points with missing coordinates.
     */
    static final class Compiled extends MarginalisedCompiled {
        private final int block;
        /** L_k⁻¹ packed row-major, class k at k·block. */
        private final double[] inverseFactors;
        private final double[] halfLogDets;
        private final MarginalFactors marginals;

        private Compiled(GaussianModel model, double[] logPriors) {
            super(model, logPriors);
            int classCount = logPriors.length;
            this.block = TriangularKernel.packedSize(d);
            this.inverseFactors = new double[classCount * block];
            this.halfLogDets = new double[classCount];
            double[][][] covariances = new double[classCount][][];
            int[] covarianceOf = new int[classCount];
            for (int k = 0; k < classCount; k++) {
                CholeskyFactor factor = model.factor(k);
                TriangularKernel.packedInverse(factor, inverseFactors, k * block);
                halfLogDets[k] = factor.halfLogDeterminant();
                covariances[k] = model.covarianceView(k);
                covarianceOf[k] = k;
            }
            this.marginals = new MarginalFactors(means, covariances, covarianceOf);
        }

        @Override
        MarginalFactors marginals() {
            return marginals;
        }

        /**
         * Four points: per class their r_p = x_p − μ_k whitened side by side ({@link TriangularKernel#whitenFour}),
         * then their log-joints; the same bits as {@link #observedLogLikelihood} per point.
         */
        @Override
        int observedLogJoints(double[][] points, double[][] rows, int from) {
            double[][] r = ScoringScratch.group(d);
            double[] q = ScoringScratch.vector(GROUP);
            int classCount = logPriors.length;
            for (int k = 0; k < classCount; k++) {
                double[] mu = means[k];
                for (int p = 0; p < GROUP; p++) {
                    double[] x = points[from + p];
                    double[] rp = r[p];
                    for (int j = 0; j < d; j++) {
                        rp[j] = x[j] - mu[j];
                    }
                }
                TriangularKernel.whitenFour(inverseFactors, k * block, r, d, q);
                for (int p = 0; p < GROUP; p++) {
                    rows[from + p][k] = LogGaussian.of(d, halfLogDets[k], q[p]);
                }
            }
            int alone = 0;
            for (int p = 0; p < GROUP; p++) {
                if (!addLogPriors(rows[from + p], null)) {
                    alone |= 1 << p;
                }
            }
            return alone;
        }

        /** Per class r = x − μ_k, q_k = ‖L_k⁻¹r‖². */
        @Override
        double observedLogLikelihood(double[] x, double[] logLikelihood, double[] distances) {
            double[] r = ScoringScratch.vector(d);
            for (int k = 0; k < logLikelihood.length; k++) {
                double[] mu = means[k];
                for (int j = 0; j < d; j++) {
                    r[j] = x[j] - mu[j];
                }
                double q = TriangularKernel.whitenInPlace(inverseFactors, k * block, r, d);
                logLikelihood[k] = LogGaussian.of(d, halfLogDets[k], q);
                if (distances != null) {
                    distances[k] = q;
                }
            }
            return 0.0;
        }

        /** {@link #observedLogLikelihood} on the scaled residual. */
        @Override
        void observedScaledDistances(double[] x, double scale, double[] distances, double[] logLikelihood) {
            double[] r = ScoringScratch.vector(d);
            for (int k = 0; k < logLikelihood.length; k++) {
                double[] mu = means[k];
                for (int j = 0; j < d; j++) {
                    r[j] = x[j] / scale - mu[j] / scale;
                }
                distances[k] = TriangularKernel.whitenInPlace(inverseFactors, k * block, r, d);
                logLikelihood[k] = LogGaussian.of(d, halfLogDets[k], 0.0);
            }
        }
    }
}
