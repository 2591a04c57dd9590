package io.gdastreams.math;

import java.util.Arrays;

/**
 * {@link RunningGaussian#update(double[], double)}: West's (1979) weighted form of Welford's recurrence,
 * W' = W + w, μ' = μ + (w/W')δ with δ = x − μ, S' = S + w·δ(x − μ')ᵀ, V' = V + w², on coordinates relative to the
 * pivot. Kept apart from the statistic so that its state and the recurrences that change it (this one,
 * {@link Retraction}, {@link ChanMerge}) can each be read on their own; the arithmetic is unchanged, operation for
 * operation, so the bytes the statistic serialises to are too.
 */
final class WestUpdate {

    private WestUpdate() {
    }

    /** Adds (x, w) to {@code g} (x and w already checked, w ≥ 0); allocates nothing. */
    static void apply(RunningGaussian g, double[] x, double w) {
        if (w != 1.0) {
            g.weighted = true;
        }
        g.n++;
        if (w == 0.0) {
            return;
        }
        int d = g.d;
        double[] pivot = g.pivot;
        double[] relativeMean = g.relativeMean;
        double[] packedScatter = g.packedScatter;
        if (g.weight == 0.0) {
            // The first observation of positive weight becomes the pivot: x − pivot is then exact and small.
            System.arraycopy(x, 0, pivot, 0, d);
            Arrays.fill(relativeMean, 0.0);
            Arrays.fill(packedScatter, 0.0);
            g.weight = w;
            g.squaredWeights = w * w;
            return;
        }
        double[] delta = g.delta;
        double[] centred = g.centred;
        g.weight += w;
        g.squaredWeights += w * w;
        double weight = g.weight;
        for (int i = 0; i < d; i++) {
            double y = x[i] - pivot[i];
            delta[i] = y - relativeMean[i];
            // (δ·w)/W': with w = 1 exactly δ/n, the unweighted recurrence.
            relativeMean[i] += delta[i] * w / weight;
            centred[i] = y - relativeMean[i];
        }
        if (g.diagonal) {
            // S_ii only: the same products as the diagonal of the O(d²) loop below, in O(d).
            for (int i = 0; i < d; i++) {
                packedScatter[i] += w * delta[i] * centred[i];
            }
            return;
        }
        // The O(d²) loop reads two vectors only: δ (old mean) and x − μ_new, both computed once above.
        int p = 0;
        for (int i = 0; i < d; i++) {
            double di = w * delta[i];
            for (int j = i; j < d; j++) {
                packedScatter[p++] += di * centred[j];
            }
        }
    }
}
