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

    /**
     * 1/σ_kj and log σ_kj of every class and coordinate, and Σ_j log σ_kj for the all-observed case.
     *
     * <p>All observed, with the vector module: every class's sum at once, side by side ({@link ClassLanes}), each in
     * the order of the one-class loop below, so the bits do not depend on the path. (Splitting one class's sum into
     * partial sums would change its bits; the classes' sums are independent, so they overlap instead.)
     */
    static final class Compiled extends CompiledCovariance {
        private final double[][] inverseStdDevs;
        private final double[][] logStdDevs;
        private final double[] halfLogDets;
        /** μ_kj and 1/σ_kj side by side over the classes ({@link ClassLanes}), for the all-observed case. */
        private final double[] laneMeans;
        private final double[] laneInverseStdDevs;
        private final int paddedClasses;

        private Compiled(GaussianModel model, double[] logPriors) {
            super(model, logPriors);
            int classCount = logPriors.length;
            this.inverseStdDevs = new double[classCount][d];
            this.logStdDevs = new double[classCount][d];
            this.halfLogDets = new double[classCount];
            for (int k = 0; k < classCount; k++) {
                double[][] cov = model.covarianceView(k);
                double halfLogDet = 0.0;
                for (int j = 0; j < d; j++) {
                    double sd = Math.sqrt(cov[j][j]);
                    inverseStdDevs[k][j] = 1.0 / sd;
                    logStdDevs[k][j] = Math.log(sd);
                    halfLogDet += logStdDevs[k][j];
                }
                halfLogDets[k] = halfLogDet;
            }
            this.paddedClasses = ClassLanes.padded(classCount);
            this.laneMeans = ClassLanes.interleave(means, d);
            this.laneInverseStdDevs = ClassLanes.interleave(inverseStdDevs, d);
        }

        /** Four points' sums in one pass ({@link VectorClassLanes#ofFour}), then their log-joints; the same bits. */
        @Override
        int observedLogJoints(double[][] points, double[][] rows, int from) {
            if (!ClassLanes.vector()) {
                return super.observedLogJoints(points, rows, from);
            }
            int kp = paddedClasses;
            double[] q = ScoringScratch.vector(GROUP * kp);
            VectorClassLanes.ofFour(points[from], points[from + 1], points[from + 2], points[from + 3], laneMeans,
                    laneInverseStdDevs, d, kp, q, 0);
            int alone = 0;
            for (int p = 0; p < GROUP; p++) {
                double[] row = rows[from + p];
                double sum = 0.0; // as addLogPriors
                for (int k = 0; k < row.length; k++) {
                    double logLikelihood = LogGaussian.of(d, halfLogDets[k], q[p * kp + k]);
                    sum += logLikelihood;
                    row[k] = logLikelihood + logPriors[k];
                }
                if (!(sum > Double.NEGATIVE_INFINITY)) {
                    alone |= 1 << p;
                }
            }
            return alone;
        }

        @Override
        double logLikelihood(double[] x, int missing, double[] logLikelihood, double[] distances) {
            if (missing == 0 && ClassLanes.vector()) {
                // Every class's q_k at once, each in the one-class loop's order (the same bits).
                double[] q = ScoringScratch.vector(paddedClasses);
                VectorClassLanes.scaledSquares(x, laneMeans, laneInverseStdDevs, d, paddedClasses, q, 0);
                for (int k = 0; k < logLikelihood.length; k++) {
                    logLikelihood[k] = LogGaussian.of(d, halfLogDets[k], q[k]);
                    if (distances != null) {
                        distances[k] = q[k];
                    }
                }
                return 0.0;
            }
            for (int k = 0; k < logLikelihood.length; k++) {
                double[] mu = means[k];
                double[] inv = inverseStdDevs[k];
                double q = 0.0;
                double halfLogDet;
                if (missing == 0) {
                    for (int j = 0; j < d; j++) {
                        double v = (x[j] - mu[j]) * inv[j];
                        q += v * v;
                    }
                    halfLogDet = halfLogDets[k];
                } else {
                    double[] logSd = logStdDevs[k];
                    halfLogDet = 0.0;
                    for (int j = 0; j < d; j++) {
                        if (!Double.isNaN(x[j])) {
                            double v = (x[j] - mu[j]) * inv[j];
                            q += v * v;
                            halfLogDet += logSd[j];
                        }
                    }
                }
                logLikelihood[k] = LogGaussian.of(d - missing, halfLogDet, q);
                if (distances != null) {
                    distances[k] = q;
                }
            }
            return 0.0;
        }

        /** The one-class loop of {@link #logLikelihood} on the scaled residual. */
        @Override
        void scaledDistances(double[] x, int missing, double scale, double[] distances, double[] logLikelihood) {
            for (int k = 0; k < logLikelihood.length; k++) {
                double[] mu = means[k];
                double[] inv = inverseStdDevs[k];
                double q = 0.0;
                double halfLogDet = 0.0;
                for (int j = 0; j < d; j++) {
                    if (!Double.isNaN(x[j])) {
                        double v = (x[j] / scale - mu[j] / scale) * inv[j];
                        q += v * v;
                        halfLogDet += logStdDevs[k][j];
                    }
                }
                distances[k] = q;
                logLikelihood[k] = LogGaussian.of(d - missing, halfLogDet, 0.0);
            }
        }
    }
}
