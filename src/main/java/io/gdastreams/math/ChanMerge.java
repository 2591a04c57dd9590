package io.gdastreams.math;

/**
 * {@link RunningGaussian#merge}: Chan et al.'s pairwise formula with weights, W = W_a + W_b, δ = μ_b − μ_a,
 * μ = μ_a + δ·W_b/W, S = S_a + S_b + δδᵀ·W_a·W_b/W, V = V_a + V_b. The other statistic's mean is moved onto this
 * one's pivot first; the difference of two pivots of close values is exact, so the merge keeps the precision the
 * pivots gave each side. A full statistic merges into a diagonal one by the diagonal of its scatter. Apart from
 * the statistic for the reason {@link WestUpdate} gives.
 */
final class ChanMerge {

    private ChanMerge() {
    }

    /** Merges {@code other} (same dimension, already checked; not modified) into {@code g}. */
    static void apply(RunningGaussian g, RunningGaussian other) {
        int d = g.d;
        long rawTotal = g.n + other.n;
        long retracted = g.retractions + other.retractions;
        boolean anyWeighted = g.weighted || other.weighted;
        long reference = Math.max(g.referenceTime, other.referenceTime);
        if (other.weight == 0.0) {
            // nothing but the counts
        } else if (g.weight == 0.0 && g.diagonal == other.diagonal) {
            g.copyFrom(other);
        } else if (g.weight == 0.0) {
            // A full statistic into an empty diagonal one: its pivot, mean and the diagonal of its scatter.
            System.arraycopy(other.pivot, 0, g.pivot, 0, d);
            System.arraycopy(other.relativeMean, 0, g.relativeMean, 0, d);
            for (int i = 0; i < d; i++) {
                g.packedScatter[i] = other.scatterDiagonal(i);
            }
            g.weight = other.weight;
            g.squaredWeights = other.squaredWeights;
        } else {
            double[] delta = g.delta;
            double[] relativeMean = g.relativeMean;
            double[] packedScatter = g.packedScatter;
            double total = g.weight + other.weight;
            double share = other.weight / total;
            double cross = g.weight * other.weight / total;
            for (int i = 0; i < d; i++) {
                // other's mean relative to our pivot; the pivot difference of close values is exact.
                double otherMean = other.relativeMean[i] + (other.pivot[i] - g.pivot[i]);
                delta[i] = otherMean - relativeMean[i];
            }
            if (g.diagonal) {
                for (int i = 0; i < d; i++) {
                    packedScatter[i] += other.scatterDiagonal(i) + delta[i] * cross * delta[i];
                }
            }
            int p = 0;
            for (int i = 0; i < (g.diagonal ? 0 : d); i++) {
                double di = delta[i] * cross;
                for (int j = i; j < d; j++) {
                    packedScatter[p] += other.packedScatter[p] + di * delta[j];
                    p++;
                }
            }
            for (int i = 0; i < d; i++) {
                relativeMean[i] += delta[i] * share;
            }
            g.weight = total;
            g.squaredWeights += other.squaredWeights;
        }
        g.n = rawTotal;
        g.retractions = retracted;
        g.weighted = anyWeighted;
        g.referenceTime = reference;
    }
}
