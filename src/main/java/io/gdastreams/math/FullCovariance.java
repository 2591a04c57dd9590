package io.gdastreams.math;

/**
 * QDA: one full covariance per class, Σ_k = S_k / n_k (UNBIASED: n_k − 1). Scoring costs one O(d²) forward
 * substitution per class; a point with missing coordinates is scored against the factors of the observed
 * sub-matrices ({@link MarginalFactors}).
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

    /** The factor of every class's covariance. */
    static final class Compiled extends CompiledCovariance {
        private final CholeskyFactor[] factors;
        private final MarginalFactors marginals;

        private Compiled(GaussianModel model, double[] logPriors) {
            super(model, logPriors);
            int classCount = logPriors.length;
            this.factors = new CholeskyFactor[classCount];
            double[][][] covariances = new double[classCount][][];
            int[] covarianceOf = new int[classCount];
            for (int k = 0; k < classCount; k++) {
                factors[k] = model.factor(k);
                covariances[k] = model.covarianceView(k);
                covarianceOf[k] = k;
            }
            this.marginals = new MarginalFactors(means, covariances, covarianceOf);
        }

        @Override
        void logLikelihood(double[] x, int missing, double[] logLikelihood, double[] distances) {
            if (missing > 0) {
                marginals.logLikelihood(x, logLikelihood, distances);
                return;
            }
            double[] r = new double[d];
            for (int k = 0; k < logLikelihood.length; k++) {
                double[] mu = means[k];
                for (int j = 0; j < d; j++) {
                    r[j] = x[j] - mu[j];
                }
                CholeskyFactor l = factors[k];
                l.solveLower(r);
                double q = LogGaussian.sumOfSquares(r, d);
                logLikelihood[k] = LogGaussian.of(d, l.halfLogDeterminant(), q);
                if (distances != null) {
                    distances[k] = q;
                }
            }
        }

        @Override
        void addConditionalMean(double[] x, int missing, double[] weights, double[] out) {
            if (missing == 0 || missing == d) {
                super.addConditionalMean(x, missing, weights, out);
            } else {
                marginals.addConditionalMean(x, weights, out);
            }
        }

        @Override
        int cachedPatterns() {
            return marginals.size();
        }
    }
}
