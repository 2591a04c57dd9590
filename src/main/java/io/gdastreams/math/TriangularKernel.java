package io.gdastreams.math;

/**
 * The O(d²) step of scoring a point under a full covariance: z = L⁻¹r and ‖z‖² with the inverse of the Cholesky
 * factor precomputed ({@link #packedInverse}), so that a score is a triangular matrix–vector product with sequential
 * memory access and no division (a forward substitution divides once per row and carries one dependent sum).
 *
 * <h2>Layout</h2>
 * L⁻¹ is lower triangular; its rows are stored packed, row-major and contiguous: row i is the i + 1 entries
 * (L⁻¹)_i0 … (L⁻¹)_ii at offset {@code base + i(i+1)/2}. Several factors share one array (one block of
 * d(d+1)/2 per class), so that a model's factors sit in one allocation.
 *
 * <h2>Kernel</h2>
 * Rows are taken four at a time: the four dot products share every load of r_j and are four independent sums, so
 * the loop is bound by the multiply-add throughput rather than by the latency of one dependent addition chain.
 * Rows are taken from the last to the first, which lets z overwrite r in place (row i reads r_0 … r_i only).
 *
 * <h2>Error bound</h2>
 * z_i is a dot product of length i + 1, computed with four partial sums: |ẑ_i − z_i| ≤ γ_{i+1} Σ_j |(L̂⁻¹)_ij r_j|
 * (γ_n = nu/(1 − nu), u = 2⁻⁵³), plus the error of the inverse itself, |L̂⁻¹L − I| ≤ γ_d |L̂⁻¹||L| (each column
 * is a forward substitution). Together these are of the order of the forward substitution's own forward error
 * (both ≲ d·u·cond(L)·|z|, Higham, "Accuracy and Stability of Numerical Algorithms", §8 and §14); neither is
 * bit-identical to the other. {@code ScoringKernelTest} checks the two against each other.
 */
final class TriangularKernel {

    private TriangularKernel() {
    }

    /** Entries of a packed d × d lower triangle: d(d+1)/2. */
    static int packedSize(int d) {
        return d * (d + 1) / 2;
    }

    /**
     * Writes L⁻¹ of {@code factor} (dimension d) packed row-major into {@code out} from {@code base}: column j is
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
                out[base + i * (i + 1) / 2 + j] = column[i];
            }
        }
    }

    /**
     * r ← L⁻¹r (the first d entries of {@code r}, in place) with L⁻¹ packed at {@code base} of {@code packed};
     * returns ‖L⁻¹r‖² (+∞ or NaN when it overflowed). Allocates nothing.
     */
    static double whitenInPlace(double[] packed, int base, double[] r, int d) {
        double q = 0.0;
        int i = d - 1;
        for (; i >= 3; i -= 4) {
            int a = i - 3;
            int oa = base + a * (a + 1) / 2;
            int ob = oa + a + 1;
            int oc = ob + a + 2;
            int oe = oc + a + 3;
            double sa = 0.0;
            double sb = 0.0;
            double sc = 0.0;
            double se = 0.0;
            for (int j = 0; j <= a; j++) {
                double rj = r[j];
                sa += packed[oa + j] * rj;
                sb += packed[ob + j] * rj;
                sc += packed[oc + j] * rj;
                se += packed[oe + j] * rj;
            }
            // The triangle the four rows do not share: columns a+1 … i.
            double r1 = r[a + 1];
            double r2 = r[a + 2];
            double r3 = r[i];
            sb += packed[ob + a + 1] * r1;
            sc += packed[oc + a + 1] * r1 + packed[oc + a + 2] * r2;
            se += packed[oe + a + 1] * r1 + packed[oe + a + 2] * r2 + packed[oe + i] * r3;
            r[a] = sa;
            r[a + 1] = sb;
            r[a + 2] = sc;
            r[i] = se;
            q += (sa * sa + sb * sb) + (sc * sc + se * se);
        }
        for (; i >= 0; i--) {
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
