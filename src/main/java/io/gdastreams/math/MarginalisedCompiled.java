package io.gdastreams.math;

/**
 * The compiled forms with full covariance matrices (QDA and LDA): a point with missing coordinates is scored and
 * imputed through the Cholesky factors of its observed sub-matrices ({@link MarginalFactors}, cached per pattern),
 * which both forms share; each scores the all-observed point its own way.
 */
abstract sealed class MarginalisedCompiled extends CompiledCovariance
        permits FullCovariance.Compiled, TiedCovariance.Compiled {

    MarginalisedCompiled(GaussianModel model, double[] logPriors) {
        super(model, logPriors);
    }

    /** The factors of the observed sub-matrices, per missing-value pattern. */
    abstract MarginalFactors marginals();

    /** {@link #logLikelihood} of a point whose every coordinate is observed; allocates nothing. */
    abstract double observedLogLikelihood(double[] x, double[] logLikelihood, double[] distances);

    @Override
    final double logLikelihood(double[] x, int missing, double[] logLikelihood, double[] distances) {
        if (missing > 0) {
            return marginals().logLikelihood(x, logLikelihood, distances);
        }
        return observedLogLikelihood(x, logLikelihood, distances);
    }

    /** {@link #scaledDistances} of a point whose every coordinate is observed. */
    abstract void observedScaledDistances(double[] x, double scale, double[] distances, double[] logLikelihood);

    @Override
    final void scaledDistances(double[] x, int missing, double scale, double[] distances, double[] logLikelihood) {
        if (missing > 0) {
            marginals().scaledDistances(x, scale, distances, logLikelihood);
        } else {
            observedScaledDistances(x, scale, distances, logLikelihood);
        }
    }

    /** {@link #distanceDifferences} of a point whose every coordinate is observed; this default: none. */
    boolean observedDistanceDifferences(double[] x, double scale, int nearest, double[] differences) {
        return false;
    }

    @Override
    final boolean distanceDifferences(double[] x, int missing, double scale, int nearest, double[] differences) {
        return missing > 0 ? marginals().distanceDifferences(x, scale, nearest, differences)
                : observedDistanceDifferences(x, scale, nearest, differences);
    }

    @Override
    final void addConditionalMean(double[] x, int missing, double[] weights, double[] out) {
        if (missing == 0 || missing == d) {
            super.addConditionalMean(x, missing, weights, out);
        } else {
            marginals().addConditionalMean(x, weights, out);
        }
    }

    @Override
    final int cachedPatterns() {
        return marginals().size();
    }

    @Override
    final long cachedPatternBytes() {
        return marginals().bytes();
    }
}
