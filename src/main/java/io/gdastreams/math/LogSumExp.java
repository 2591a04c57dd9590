package io.gdastreams.math;

/** log Σ exp(v_i) without overflow or underflow: the maximum is factored out first. */
public final class LogSumExp {

    private LogSumExp() {
    }

    /**
     * log Σ exp(v_i) over the first {@code length} entries of {@code v} (not modified). −∞ when every entry is −∞
     * or length is 0; +∞ when any entry is +∞.
     */
    public static double of(double[] v, int length) {
        double max = max(v, length);
        if (Double.isInfinite(max)) {
            return max;
        }
        double sum = 0.0;
        for (int i = 0; i < length; i++) {
            sum += Math.exp(v[i] - max);
        }
        return max + Math.log(sum);
    }

    /** log Σ exp(v_i) over all of {@code v} (not modified). */
    public static double of(double[] v) {
        return of(v, v.length);
    }

    /**
     * Normalises in place and returns log Σ exp(v_i): v_i ← exp(v_i − log Σ exp(v_j)), computed as
     * e_i = exp(v_i − max) and e_i / Σ e_j, i.e. one exponential per entry and one logarithm in all (the log-sum is
     * max + log Σ e_j, exactly {@link #of}'s). The division makes the entries sum to 1 to rounding (each is
     * within 2u of e_i/Σe relative, u = 2⁻⁵³). A NaN entry counts as −∞ (probability 0). Every entry −∞ (or
     * length 0): v is left as it is and −∞ returned, for the caller to decide; an entry +∞: every entry becomes NaN
     * and +∞ is returned. Allocates nothing.
     */
    public static double normalise(double[] v, int length) {
        // Two and three entries (classes) are the common case: with the count a constant the compiler unrolls the
        // three short loops below (the same operations in the same order), a few ns of a score of some 50.
        return length == 3 ? normaliseAny(v, 3) : length == 2 ? normaliseAny(v, 2) : normaliseAny(v, length);
    }

    private static double normaliseAny(double[] v, int length) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < length; i++) {
            if (!(v[i] > Double.NEGATIVE_INFINITY)) {
                v[i] = Double.NEGATIVE_INFINITY;
            } else if (v[i] > max) {
                max = v[i];
            }
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        if (max == Double.POSITIVE_INFINITY) {
            java.util.Arrays.fill(v, 0, length, Double.NaN);
            return max;
        }
        double sum = 0.0;
        for (int i = 0; i < length; i++) {
            double e = Math.exp(v[i] - max);
            v[i] = e;
            sum += e;
        }
        for (int i = 0; i < length; i++) {
            v[i] /= sum;
        }
        return max + Math.log(sum);
    }

    private static double max(double[] v, int length) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < length; i++) {
            if (v[i] > max) {
                max = v[i];
            }
        }
        return max;
    }
}
