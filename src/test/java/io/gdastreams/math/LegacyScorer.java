package io.gdastreams.math;

/**
 * The scoring path as it was before the zero-allocation kernels (commit 2263c6d), for a point with every feature
 * observed, kept operation for operation: per class a forward substitution with the Cholesky factor (EJML's
 * {@code solveL}: one dependent sum and one division per row) into a new d-vector, then the posterior from
 * {@link LogSumExp} and a second pass of K exponentials. Two uses: {@code MathCoreBenchmark} measures it beside the
 * new path in the same JMH run (old vs new), and {@code ScoringKernelTest} checks the new kernels against it, an
 * independently written algorithm (substitution vs an explicit inverse), on ill-conditioned and offset data.
 */
public final class LegacyScorer {

    private final GaussianModel model;
    private final int d;
    private final int classCount;
    private final double[] logPriors;
    private final CovarianceType type;
    /** TIED: L⁻¹(μ_k − μ_0) by substitution. */
    private final double[][] whitenedMeanOffsets;
    /** DIAG: 1/σ_kj and log σ_kj. */
    private final double[][] inverseStdDevs;
    private final double[][] logStdDevs;

    private LegacyScorer(GaussianModel model) {
        this.model = model;
        this.d = model.dimension();
        this.classCount = model.labels().size();
        this.type = model.options().covarianceType();
        this.logPriors = new double[classCount];
        for (int k = 0; k < classCount; k++) {
            logPriors[k] = Math.log(model.priorView(k));
        }
        whitenedMeanOffsets = new double[classCount][];
        inverseStdDevs = new double[classCount][d];
        logStdDevs = new double[classCount][d];
        for (int k = 0; k < classCount; k++) {
            if (type == CovarianceType.TIED) {
                double[] offset = new double[d];
                for (int j = 0; j < d; j++) {
                    offset[j] = model.meanView(k)[j] - model.meanView(0)[j];
                }
                model.factor(0).solveLower(offset);
                whitenedMeanOffsets[k] = offset;
            } else if (type == CovarianceType.DIAG) {
                double[][] cov = model.covarianceView(k);
                for (int j = 0; j < d; j++) {
                    double sd = Math.sqrt(cov[j][j]);
                    inverseStdDevs[k][j] = 1.0 / sd;
                    logStdDevs[k][j] = Math.log(sd);
                }
            }
        }
    }

    /** The old path for {@code model} (FULL, TIED or DIAG; at least one scored class). */
    public static LegacyScorer compile(GaussianModel model) {
        return new LegacyScorer(model);
    }

    /** The old {@code Discriminant.score(x)} for a point with every coordinate observed (x finite, length d). */
    public Posterior score(double[] x) {
        // The old Discriminant's checks on x (their cost was part of every score).
        if (x.length != d) {
            throw new IllegalArgumentException("expected " + d + " values, got " + x.length);
        }
        for (double v : x) {
            if (Double.isNaN(v)) {
                throw new IllegalArgumentException("the legacy path is kept for observed points only");
            } else if (Double.isInfinite(v)) {
                throw new IllegalArgumentException("infinite feature value " + v);
            }
        }
        double[] logJoint = new double[classCount];
        switch (type) {
            case FULL -> full(x, logJoint);
            case TIED -> tied(x, logJoint);
            case DIAG -> diagonal(x, logJoint);
            default -> throw new IllegalStateException("no legacy path for " + type);
        }
        for (int k = 0; k < classCount; k++) {
            logJoint[k] += logPriors[k];
        }
        return posterior(logJoint);
    }

    private void full(double[] x, double[] logLikelihood) {
        double[] r = new double[d];
        for (int k = 0; k < classCount; k++) {
            double[] mu = model.meanView(k);
            for (int j = 0; j < d; j++) {
                r[j] = x[j] - mu[j];
            }
            CholeskyFactor l = model.factor(k);
            l.solveLower(r);
            double q = LogGaussian.sumOfSquares(r, d);
            logLikelihood[k] = LogGaussian.of(d, l.halfLogDeterminant(), q);
        }
    }

    private void tied(double[] x, double[] logLikelihood) {
        double[] z = new double[d];
        double[] mu0 = model.meanView(0);
        for (int j = 0; j < d; j++) {
            z[j] = x[j] - mu0[j];
        }
        CholeskyFactor factor = model.factor(0);
        factor.solveLower(z);
        double halfLogDet = factor.halfLogDeterminant();
        for (int k = 0; k < classCount; k++) {
            double[] offset = whitenedMeanOffsets[k];
            double q = 0.0;
            for (int j = 0; j < d; j++) {
                double v = z[j] - offset[j];
                q += v * v;
            }
            logLikelihood[k] = LogGaussian.of(d, halfLogDet, q);
        }
    }

    private void diagonal(double[] x, double[] logLikelihood) {
        for (int k = 0; k < classCount; k++) {
            double[] mu = model.meanView(k);
            double[] inv = inverseStdDevs[k];
            double[] logSd = logStdDevs[k];
            double q = 0.0;
            double halfLogDet = 0.0;
            for (int j = 0; j < d; j++) {
                double v = (x[j] - mu[j]) * inv[j];
                q += v * v;
                halfLogDet += logSd[j];
            }
            logLikelihood[k] = LogGaussian.of(d, halfLogDet, q);
        }
    }

    private Posterior posterior(double[] logJoint) {
        for (int k = 0; k < classCount; k++) {
            if (!(logJoint[k] > Double.NEGATIVE_INFINITY)) {
                logJoint[k] = Double.NEGATIVE_INFINITY;
            }
        }
        double logDensity = LogSumExp.of(logJoint);
        double[] probabilities = new double[classCount];
        if (logDensity == Double.NEGATIVE_INFINITY) {
            for (int k = 0; k < classCount; k++) {
                probabilities[k] = Math.exp(logPriors[k]);
            }
            logDensity = -Double.MAX_VALUE;
        } else {
            double sum = 0.0;
            for (int k = 0; k < classCount; k++) {
                probabilities[k] = Math.exp(logJoint[k] - logDensity);
                sum += probabilities[k];
            }
            for (int k = 0; k < classCount; k++) {
                probabilities[k] /= sum;
            }
        }
        int predicted = 0;
        for (int k = 0; k < classCount; k++) {
            if (logJoint[k] == Double.NEGATIVE_INFINITY) {
                logJoint[k] = -Double.MAX_VALUE;
            }
            if (probabilities[k] > probabilities[predicted]) {
                predicted = k;
            }
        }
        return new Posterior(predicted, probabilities, logJoint, logDensity);
    }
}
