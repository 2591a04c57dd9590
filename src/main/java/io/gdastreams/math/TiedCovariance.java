package io.gdastreams.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * LDA: one covariance pooled over the classes, Σ = Σ_k S_k / n (UNBIASED: n − K), sums over the classes that
 * passed the count test. The classes stand or fall together: when the pooled estimate does not exist or does not
 * factorise, every one of them is excluded. Scoring costs one whitening (a triangular product with L⁻¹) in all; the
 * discriminant is linear in x ({@link LinearDiscriminants}).
 */
final class TiedCovariance implements CovarianceStructure {

    /** The pooled estimate's conditions are on all classes together (see {@link #fit}), never on one. */
    @Override
    public Optional<String> exclusion(ClassSummary c, Estimator estimator) {
        return Optional.empty();
    }

    @Override
    public List<Fitted> fit(List<ClassSummary> candidates, Estimator estimator, Regularisation regularisation,
                            List<Exclusion> excluded) {
        List<Fitted> fitted = new ArrayList<>(candidates.size());
        if (candidates.isEmpty()) {
            return fitted;
        }
        double n = 0;
        double noise = 0; // the weight of the classes whose unbiased divisor is only rounding noise
        for (ClassSummary c : candidates) {
            n += c.weight();
            noise += c.hasUnbiasedDivisor() ? 0 : c.weight();
        }
        int k = candidates.size();
        // ΣW − Σ V_k/W_k: with every weight 1 exactly n − K.
        double divisor = estimator.pooledDivisor(candidates);
        // Only UNBIASED gets here: the MLE divisor is n ≥ K·minCount ≥ 1. Weighted, each class of one effective event
        // adds rounding noise of either sign to it (PerClassCovariance): a divisor within that noise is none.
        if (!(divisor > ClassSummary.EFFECTIVE_SIZE_TOLERANCE * noise)) {
            for (ClassSummary c : candidates) {
                excluded.add(new Exclusion(c.label(), "unbiased pooled covariance needs a total count above the "
                        + "number of classes (n=" + count(n) + ", K=" + k + ")"));
            }
            return fitted;
        }
        int d = candidates.get(0).mean().length;
        double[][] pooled = new double[d][d];
        for (ClassSummary c : candidates) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    pooled[i][j] += c.scatter()[i][j];
                }
            }
        }
        Regularisation.scale(pooled, 1.0 / divisor);
        Optional<Regularisation.Regularised> r = regularisation.apply(pooled);
        for (ClassSummary c : candidates) {
            if (r.isPresent()) {
                fitted.add(new Fitted(c, r.get()));
            } else {
                excluded.add(new Exclusion(c.label(), Regularisation.notPositiveDefinite()));
            }
        }
        return fitted;
    }

    /** A total weight as the message shows it: an integer when it is one (every weight 1), as it read before. */
    private static String count(double n) {
        return n == Math.rint(n) && Math.abs(n) < 1e15 ? Long.toString((long) n) : Double.toString(n);
    }

    @Override
    public CompiledCovariance compile(GaussianModel model, double[] logPriors) {
        return new Compiled(model, logPriors);
    }

    /**
     * The shared factor L and its inverse ({@link TriangularKernel}), and L⁻¹(μ_k − μ_0) per class so that one
     * whitening serves every class; both differences stay small when the data sit on a large offset.
     */
    static final class Compiled extends MarginalisedCompiled {
        /** Null when every class is excluded (nothing is scored then). */
        private final CholeskyFactor factor;
        /** L⁻¹ packed row-major; empty when every class is excluded. */
        private final double[] inverseFactor;
        /** L⁻¹(μ_k − μ_0), class k at k·d. */
        private final double[] whitenedMeanOffsets;
        /** The same side by side, class k's coordinate j at j·K₄ + k ({@link ClassLanes}), for the vector form. */
        private final double[] laneMeanOffsets;
        private final int paddedClasses;
        /** Null when every class is excluded. */
        private final LinearDiscriminants linear;
        private final MarginalFactors marginals;

        private Compiled(GaussianModel model, double[] logPriors) {
            super(model, logPriors);
            int classCount = logPriors.length;
            this.paddedClasses = ClassLanes.padded(classCount);
            if (classCount == 0) {
                whitenedMeanOffsets = new double[0];
                laneMeanOffsets = new double[0];
                factor = null;
                inverseFactor = new double[0];
                linear = null;
                marginals = new MarginalFactors(means, new double[0][][], new int[0]);
                return;
            }
            factor = model.factor(0);
            inverseFactor = new double[TriangularKernel.packedSize(d)];
            TriangularKernel.packedInverse(factor, inverseFactor, 0);
            double[][] offsets = new double[classCount][d];
            for (int k = 0; k < classCount; k++) {
                double[] offset = offsets[k];
                for (int j = 0; j < d; j++) {
                    offset[j] = means[k][j] - means[0][j];
                }
                // The same L⁻¹ as the point's, so that z − offset_k is L⁻¹(x − μ_k) under one linear map.
                TriangularKernel.whitenInPlace(inverseFactor, 0, offset, d);
            }
            whitenedMeanOffsets = new double[classCount * d];
            for (int k = 0; k < classCount; k++) {
                System.arraycopy(offsets[k], 0, whitenedMeanOffsets, k * d, d);
            }
            laneMeanOffsets = ClassLanes.interleave(offsets, d);
            linear = linearDiscriminants();
            marginals = new MarginalFactors(means, new double[][][] {model.covarianceView(0)},
                    new int[classCount]);
        }

        /**
         * Every coordinate observed: z = L⁻¹(x − μ_0) once, then q_k = ‖z − L⁻¹(μ_k − μ_0)‖², with the vector
         * module for every class at once ({@link ClassLanes}), else class by class; each q_k summed over j in
         * order either way (the same bits). A point beyond {@link #SPLIT_ABOVE} is scored in the split form (see
         * there).
         */
        @Override
        double observedLogLikelihood(double[] x, double[] logLikelihood, double[] distances) {
            // z in [0, d), the K₄ sums after it.
            double[] scratch = ScoringScratch.vector(d + paddedClasses);
            double[] mu0 = means[0];
            for (int j = 0; j < d; j++) {
                scratch[j] = x[j] - mu0[j];
            }
            TriangularKernel.whitenInPlace(inverseFactor, 0, scratch, d);
            boolean lanes = ClassLanes.vector();
            if (lanes) {
                VectorClassLanes.squares(scratch, laneMeanOffsets, d, paddedClasses, scratch, d);
            }
            double halfLogDet = factor.halfLogDeterminant();
            double nearest = Double.POSITIVE_INFINITY;
            int nearestClass = -1;
            for (int k = 0; k < logLikelihood.length; k++) {
                double q;
                if (lanes) {
                    q = scratch[d + k];
                } else {
                    int o = k * d;
                    q = 0.0;
                    for (int j = 0; j < d; j++) {
                        double v = scratch[j] - whitenedMeanOffsets[o + j];
                        q += v * v;
                    }
                }
                if (q < nearest) {
                    nearest = q;
                    nearestClass = k;
                }
                logLikelihood[k] = LogGaussian.of(d, halfLogDet, q);
                if (distances != null) {
                    distances[k] = q;
                }
            }
            return nearest > SPLIT_ABOVE && nearest < Double.POSITIVE_INFINITY
                    ? split(scratch, nearestClass, nearest, logLikelihood, halfLogDet) : 0.0;
        }

        /**
         * Four points: whitened side by side ({@link TriangularKernel#whitenFour}, as {@link #observedLogLikelihood}
         * whitens one), then their sums in one pass ({@link VectorClassLanes#ofFour}) and their log-joints; the same
         * bits. A point beyond {@link #SPLIT_ABOVE} is left to be scored alone (its bit in the mask).
         */
        @Override
        int observedLogJoints(double[][] points, double[][] rows, int from) {
            if (!ClassLanes.vector() || factor == null) {
                return super.observedLogJoints(points, rows, from);
            }
            double[][] z = ScoringScratch.group(d);
            double[] mu0 = means[0];
            for (int p = 0; p < GROUP; p++) {
                double[] x = points[from + p];
                double[] zp = z[p];
                for (int j = 0; j < d; j++) {
                    zp[j] = x[j] - mu0[j];
                }
            }
            int kp = paddedClasses;
            double[] q = ScoringScratch.vector(GROUP * kp);
            TriangularKernel.whitenFour(inverseFactor, 0, z, d, q); // the norms are not used: q is overwritten
            VectorClassLanes.ofFour(z[0], z[1], z[2], z[3], laneMeanOffsets, null, d, kp, q, 0);
            double halfLogDet = factor.halfLogDeterminant();
            int alone = 0;
            for (int p = 0; p < GROUP; p++) {
                double[] row = rows[from + p];
                double nearest = Double.POSITIVE_INFINITY;
                double sum = 0.0; // as addLogPriors
                for (int k = 0; k < row.length; k++) {
                    double qk = q[p * kp + k];
                    if (qk < nearest) {
                        nearest = qk;
                    }
                    double logLikelihood = LogGaussian.of(d, halfLogDet, qk);
                    sum += logLikelihood;
                    row[k] = logLikelihood + logPriors[k];
                }
                if (!(sum > Double.NEGATIVE_INFINITY) || nearest > SPLIT_ABOVE) {
                    alone |= 1 << p;
                }
            }
            return alone;
        }

        /**
         * Beyond this squared distance from the nearest class, one ulp of q_k (2.3e-10 at 2^20, a point about 1000
         * standard deviations from every class) starts to matter for the posterior of classes whose log-joints are
         * close; at 10^16 standard deviations q_k's rounding swallows the classes' differences (and the log priors)
         * whole, and every class came out equally probable. Nearer to some class, the one-pass form stands, bit for
         * bit.
         */
        static final double SPLIT_ABOVE = 0x1p20;

        /**
         * With m the nearest class and w = z − o_m (o_k = L⁻¹(μ_k − μ_0)), q_k = q_m + r_k where
         * r_k = Δ_kᵀ(Δ_k − 2w), Δ_k = o_k − o_m, holds the classes' differences exactly where q_m + r_k cannot (and
         * r_m = 0): logLikelihood[k] gets the part of r_k and −½q_m is returned as the shared term
         * ({@link CompiledCovariance#logLikelihood}). {@code z}: the whitened point in z[0, d). When some r_k is not
         * finite (offsets near the largest double), the one-pass values stay and nothing is shared. Distances, if
         * asked, stay the one-pass q_k.
         */
        private double split(double[] z, int nearestClass, double nearest, double[] logLikelihood,
                             double halfLogDet) {
            int m = nearestClass * d;
            for (int pass = 0; pass < 2; pass++) {
                for (int k = 0; k < logLikelihood.length; k++) {
                    int o = k * d;
                    double r = 0.0;
                    for (int j = 0; j < d; j++) {
                        double delta = whitenedMeanOffsets[o + j] - whitenedMeanOffsets[m + j];
                        r += delta * (delta - 2.0 * (z[j] - whitenedMeanOffsets[m + j]));
                    }
                    if (pass == 0 && !Double.isFinite(r)) {
                        return 0.0;
                    }
                    if (pass == 1) {
                        logLikelihood[k] = LogGaussian.of(d, halfLogDet, r);
                    }
                }
            }
            return -0.5 * nearest;
        }

        /** D²_k / s² = ‖z/s − o_k/s‖², z/s = L⁻¹(x/s − μ_0/s), as {@link #observedLogLikelihood} class by class. */
        @Override
        void observedScaledDistances(double[] x, double scale, double[] distances, double[] logLikelihood) {
            double[] z = scaledWhitened(x, scale);
            for (int k = 0; k < logLikelihood.length; k++) {
                int o = k * d;
                double q = 0.0;
                for (int j = 0; j < d; j++) {
                    double v = z[j] - whitenedMeanOffsets[o + j] / scale;
                    q += v * v;
                }
                distances[k] = q;
                logLikelihood[k] = LogGaussian.of(d, factor.halfLogDeterminant(), 0.0);
            }
        }

        /**
         * {@link #split}'s r_k = Δ_kᵀ(Δ_k − 2w), Δ_k = o_k − o_m, w = z − o_m, from the scaled w/s as
         * ‖Δ_k‖² − 2s·Δ_kᵀ(w/s), which holds even where q_m and w overflowed (only the product s·Δ_kᵀ(w/s) may).
         */
        @Override
        boolean observedDistanceDifferences(double[] x, double scale, int nearest, double[] differences) {
            double[] z = scaledWhitened(x, scale);
            int m = nearest * d;
            for (int k = 0; k < differences.length; k++) {
                int o = k * d;
                double square = 0.0;
                double cross = 0.0;
                for (int j = 0; j < d; j++) {
                    double delta = whitenedMeanOffsets[o + j] - whitenedMeanOffsets[m + j];
                    square += delta * delta;
                    cross += delta * (z[j] - whitenedMeanOffsets[m + j] / scale);
                }
                differences[k] = square - scale * (2.0 * cross);
                if (!(differences[k] > Double.NEGATIVE_INFINITY)) {
                    return false;
                }
            }
            return true;
        }

        /** L⁻¹(x/s − μ_0/s), a new array. */
        private double[] scaledWhitened(double[] x, double scale) {
            double[] z = new double[d];
            for (int j = 0; j < d; j++) {
                z[j] = x[j] / scale - means[0][j] / scale;
            }
            TriangularKernel.whitenInPlace(inverseFactor, 0, z, d);
            return z;
        }

        /** The shared Σ makes imputation's mixture linear: one triangular solve pair in all. */
        @Override
        MarginalFactors marginals() {
            return marginals;
        }

        @Override
        Optional<LinearDiscriminants> linear() {
            if (linear == null) {
                return Optional.empty();
            }
            double[][] beta = new double[means.length][];
            for (int k = 0; k < means.length; k++) {
                beta[k] = linear.beta()[k].clone();
            }
            return Optional.of(new LinearDiscriminants(beta, linear.gamma().clone()));
        }

        /** β_k = Σ⁻¹μ_k = L⁻ᵀL⁻¹μ_k and γ_k = −½ μ_kᵀβ_k + log π_k. */
        private LinearDiscriminants linearDiscriminants() {
            int classCount = means.length;
            double[][] beta = new double[classCount][];
            double[] gamma = new double[classCount];
            for (int k = 0; k < classCount; k++) {
                double[] b = means[k].clone();
                factor.solveLower(b);
                factor.solveLowerTransposed(b);
                double quadratic = 0.0;
                for (int j = 0; j < d; j++) {
                    quadratic += means[k][j] * b[j];
                }
                beta[k] = b;
                gamma[k] = -0.5 * quadratic + logPriors[k];
            }
            return new LinearDiscriminants(beta, gamma);
        }
    }
}
