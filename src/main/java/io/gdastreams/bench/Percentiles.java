package io.gdastreams.bench;

import java.util.Arrays;

/** Nearest-rank percentiles of a sample of durations (milliseconds). */
record Percentiles(int count, long p50, long p99, long max) {

    static final Percentiles EMPTY = new Percentiles(0, -1, -1, -1);

    /** @param values the sample; not modified */
    static Percentiles of(long[] values) {
        if (values.length == 0) {
            return EMPTY;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Percentiles(sorted.length, rank(sorted, 0.50), rank(sorted, 0.99), sorted[sorted.length - 1]);
    }

    /** The smallest value with at least {@code q} of the sample at or below it. */
    private static long rank(long[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
