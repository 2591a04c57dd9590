package io.gdastreams.math;

import java.util.Arrays;

/** The set of missing (NaN) coordinates of a point, as a bit set: the key of {@link MarginalFactors}' cache. */
final class MissingPattern {
    private final long[] words;
    private final int hash;

    private MissingPattern(long[] words) {
        this.words = words;
        this.hash = Arrays.hashCode(words);
    }

    static MissingPattern of(double[] x) {
        long[] words = new long[(x.length + 63) >>> 6];
        for (int j = 0; j < x.length; j++) {
            if (Double.isNaN(x[j])) {
                words[j >>> 6] |= 1L << (j & 63);
            }
        }
        return new MissingPattern(words);
    }

    int[] observedIndices(int d) {
        int count = 0;
        for (int j = 0; j < d; j++) {
            if (!isMissing(j)) {
                count++;
            }
        }
        int[] observed = new int[count];
        int i = 0;
        for (int j = 0; j < d; j++) {
            if (!isMissing(j)) {
                observed[i++] = j;
            }
        }
        return observed;
    }

    private boolean isMissing(int j) {
        return (words[j >>> 6] & (1L << (j & 63))) != 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MissingPattern && Arrays.equals(words, ((MissingPattern) o).words);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
