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
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < length; i++) {
            if (v[i] > max) {
                max = v[i];
            }
        }
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
}
