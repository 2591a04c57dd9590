package io.gdastreams.math;

/**
 * Gaussian naive Bayes: a diagonal covariance per class, Σ_k = diag(S_k) / n_k (UNBIASED: n_k − 1). The
 * coordinates are independent given the class, so scoring is O(d) per class and a missing coordinate is simply
 * left out of the sums: no sub-factor, nothing cached. For the same reason the mean of a missing coordinate given
 * the observed ones is just μ_kj (Σ_k,MO = 0): imputation is the compiled form's default, the mixture of means.
 */
final class DiagonalCovariance implements PerClassCovariance {

    @Override
    public double[][] estimate(double[][] scatter, double divisor) {
        double[][] cov = new double[scatter.length][scatter.length];
        for (int i = 0; i < scatter.length; i++) {
            cov[i][i] = scatter[i][i] / divisor;
        }
        return cov;
    }

    @Override
    public CompiledCovariance compile(GaussianModel model, double[] logPriors) {
        return new Compiled(model, logPriors);
    }

    /** 1/σ_kj and log σ_kj of every class and coordinate. */
    static final class Compiled extends CompiledCovariance {
        private final double[][] inverseStdDevs;
        private final double[][] logStdDevs;

        private Compiled(GaussianModel model, double[] logPriors) {
            super(model, logPriors);
            this.inverseStdDevs = new double[logPriors.length][d];
            this.logStdDevs = new double[logPriors.length][d];
            for (int k = 0; k < logPriors.length; k++) {
                double[][] cov = model.covarianceView(k);
                for (int j = 0; j < d; j++) {
                    double sd = Math.sqrt(cov[j][j]);
                    inverseStdDevs[k][j] = 1.0 / sd;
                    logStdDevs[k][j] = Math.log(sd);
                }
            }
        }

        @Override
        void logLikelihood(double[] x, int missing, double[] logLikelihood, double[] distances) {
            for (int k = 0; k < logLikelihood.length; k++) {
                double[] mu = means[k];
                double[] inv = inverseStdDevs[k];
                double[] logSd = logStdDevs[k];
                double q = 0.0;
                double halfLogDet = 0.0;
                int observed = 0;
                for (int j = 0; j < d; j++) {
                    if (!Double.isNaN(x[j])) {
                        double v = (x[j] - mu[j]) * inv[j];
                        q += v * v;
                        halfLogDet += logSd[j];
                        observed++;
                    }
                }
                logLikelihood[k] = LogGaussian.of(observed, halfLogDet, q);
                if (distances != null) {
                    distances[k] = q;
                }
            }
        }
    }
}
