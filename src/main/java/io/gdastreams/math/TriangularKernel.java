package io.gdastreams.math;

/**
 * The O(d²) step of scoring a point under a full covariance: z = L⁻¹r and ‖z‖² with the inverse of the Cholesky
 * factor precomputed ({@link #packedInverse}), so that a score is a triangular matrix–vector product with sequential
 * memory access and no division (a forward substitution divides once per row and carries one dependent sum).
 *
 * <h2>Layout</h2>
 * L⁻¹ is lower triangular, d(d+1)/2 entries. With m = d mod 4, rows 0 … m−1 come first, row-major (row i at
 * i(i+1)/2). The other rows form blocks of four, rows a … a+3 for a = m, m+4, …, d−4, each at offset a(a+1)/2:
 * first the columns j = 0 … a that all four rows share, column-major (the four entries of column j are contiguous,
 * at 4j + t for row a+t), then the triangle they do not share, (a+1,a+1), (a+2,a+1), (a+2,a+2), (a+3,a+1),
 * (a+3,a+2), (a+3,a+3). Four rows side by side are exactly one 256-bit vector of doubles, which is what the vector
 * kernel ({@code VectorTriangularKernel}) loads; the scalar kernel reads the same layout in the same order.
 * Several factors share one array (one block of d(d+1)/2 per class), so that a model's factors sit in one
 * allocation. {@link #index} gives the position of (L⁻¹)_ij.
 *
 * <h2>Kernel</h2>
 * Rows are taken four at a time: the four dot products share every load of r_j and are four independent sums, so
 * the loop is bound by the multiply-add throughput rather than by the latency of one dependent addition chain.
 * Blocks are taken from the last to the first, which lets z overwrite r in place (rows a … a+3 read r_0 … r_{a+3}
 * only). The order of every addition is fixed here ({@link #whitenScalar}); the vector kernel keeps it, so both
 * give the same bits ({@link KernelChoice} picks one).
 *
 * <h2>Error bound</h2>
 * z_i is a dot product of length i + 1: |ẑ_i − z_i| ≤ γ_{i+1} Σ_j |(L̂⁻¹)_ij r_j| (γ_n = nu/(1 − nu),
 * u = 2⁻⁵³), plus the error of the inverse itself, |L̂⁻¹L − I| ≤ γ_d |L̂⁻¹||L| (each column is a forward
 * substitution). Together these are of the order of the forward substitution's own forward error (both
 * ≲ d·u·cond(L)·|z|, Higham, "Accuracy and Stability of Numerical Algorithms", §8 and §14); neither is
 * bit-identical to the other. {@code ScoringKernelTest} checks the two against each other.
 */
final class TriangularKernel {

    private TriangularKernel() {
    }

    /** Entries of a packed d × d lower triangle: d(d+1)/2. */
    static int packedSize(int d) {
        return d * (d + 1) / 2;
    }

    /** Position of (L⁻¹)_ij (j ≤ i) of a d × d factor in the layout above, relative to the factor's base. */
    static int index(int d, int i, int j) {
        int m = d & 3;
        if (i < m) {
            return i * (i + 1) / 2 + j;
        }
        int a = i - ((i - m) & 3);
        int t = i - a;
        int offset = a * (a + 1) / 2;
        if (j <= a) {
            return offset + 4 * j + t;
        }
        return offset + 4 * (a + 1) + t * (t - 1) / 2 + (j - a - 1);
    }

    /**
     * Writes L⁻¹ of {@code factor} (dimension d) in the layout above into {@code out} from {@code base}: column j is
     * the forward substitution L c = e_j, whose entries above row j are exactly zero and are not stored.
     */
    static void packedInverse(CholeskyFactor factor, double[] out, int base) {
        int d = factor.dimension();
        double[] column = new double[d];
        for (int j = 0; j < d; j++) {
            java.util.Arrays.fill(column, 0.0);
            column[j] = 1.0;
            factor.solveLower(column);
            for (int i = j; i < d; i++) {
                out[base + index(d, i, j)] = column[i];
            }
        }
    }

    /**
     * r ← L⁻¹r (the first d entries of {@code r}, in place) with L⁻¹ at {@code base} of {@code packed}; returns
     * ‖L⁻¹r‖² (+∞ or NaN when it overflowed). Allocates nothing. The vector kernel when {@link KernelChoice} chose it
     * for this d and it has been compiled ({@link VectorWarmUp}), else the scalar one: the same bits either way.
     */
    static double whitenInPlace(double[] packed, int base, double[] r, int d) {
        if (KernelChoice.VECTOR && d >= KernelChoice.VECTOR_MIN_DIMENSION && VectorWarmUp.done()) {
            return VectorTriangularKernel.whitenInPlace(packed, base, r, d);
        }
        return whitenScalar(packed, base, r, d);
    }

    /**
     * {@link #whitenInPlace} of the four vectors {@code r[0 … 3]}, with q[p] = ‖L⁻¹r_p‖², each bit for bit as alone:
     * with the vector kernel side by side ({@link VectorTriangularKernel#whitenFour}), else one after the other.
     */
    static void whitenFour(double[] packed, int base, double[][] r, int d, double[] q) {
        if (KernelChoice.VECTOR && d >= KernelChoice.VECTOR_MIN_DIMENSION && VectorWarmUp.done()) {
            VectorTriangularKernel.whitenFour(packed, base, r[0], r[1], r[2], r[3], d, q);
            return;
        }
        for (int p = 0; p < r.length; p++) {
            q[p] = whitenScalar(packed, base, r[p], d);
        }
    }

    /** {@link #whitenInPlace} in plain Java; the reference order of operations. */
    static double whitenScalar(double[] packed, int base, double[] r, int d) {
        double q = 0.0;
        int m = d & 3;
        for (int a = d - 4; a >= m; a -= 4) {
            int o = base + a * (a + 1) / 2;
            double sa = 0.0;
            double sb = 0.0;
            double sc = 0.0;
            double se = 0.0;
            for (int j = 0; j <= a; j++) {
                double rj = r[j];
                int c = o + 4 * j;
                sa += packed[c] * rj;
                sb += packed[c + 1] * rj;
                sc += packed[c + 2] * rj;
                se += packed[c + 3] * rj;
            }
            // The triangle the four rows do not share: columns a+1 … a+3.
            int t = o + 4 * (a + 1);
            double r1 = r[a + 1];
            double r2 = r[a + 2];
            double r3 = r[a + 3];
            sb += packed[t] * r1;
            sc += packed[t + 1] * r1 + packed[t + 2] * r2;
            se += packed[t + 3] * r1 + packed[t + 4] * r2 + packed[t + 5] * r3;
            r[a] = sa;
            r[a + 1] = sb;
            r[a + 2] = sc;
            r[a + 3] = se;
            q += (sa * sa + sb * sb) + (sc * sc + se * se);
        }
        for (int i = m - 1; i >= 0; i--) {
            int o = base + i * (i + 1) / 2;
            double s = 0.0;
            for (int j = 0; j <= i; j++) {
                s += packed[o + j] * r[j];
            }
            r[i] = s;
            q += s * s;
        }
        return q;
    }
}
