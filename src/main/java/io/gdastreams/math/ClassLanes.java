package io.gdastreams.math;

/**
 * The per-class sums of squares of DIAG and TIED scoring with the classes side by side ("lanes = classes"):
 * q_k = Σ_j ((y_j − c_kj)·w_kj)² (naive Bayes: y = x, c_k = μ_k, w_k = 1/σ_k) and q_k = Σ_j (y_j − c_kj)² (LDA:
 * y = L⁻¹(x − μ_0), c_k = L⁻¹(μ_k − μ_0)), for every class k at once.
 *
 * <h2>Layout</h2>
 * Coordinate-major with the classes padded to a multiple of four (K₄ = {@link #padded}): c_kj at j·K₄ + k, so that
 * the four classes of a group are contiguous for each coordinate, one 256-bit vector. Padding classes have c = 0
 * and w = 0; their sums are finite and never read.
 *
 * <h2>Same bits, fewer dependent additions</h2>
 * Each class's sum is the scalar sum of the one-class loop it replaces: s ← s + v·v for j = 0, 1, …, d−1, with
 * v = (y_j − c_kj)·w_kj (or y_j − c_kj), each operation rounded on its own (no fused multiply-add). Only the
 * classes are interleaved: a one-class sum is a chain of d dependent additions (4 cycles each); in the four lanes of a
 * vector ({@code VectorClassLanes}, chosen as the triangular kernel is, {@link KernelChoice}) four classes' chains
 * run as one, with one vector operation for four classes' work. Nothing is added across classes, so the grouping
 * changes no order. Without the vector module ({@link #vector} false) the layout is not used.
 */
final class ClassLanes {

    /** Classes per group: the lanes of a 256-bit vector of doubles. */
    static final int LANES = 4;

    private ClassLanes() {
    }

    /** K rounded up to a multiple of {@link #LANES}. */
    static int padded(int classCount) {
        return (classCount + LANES - 1) / LANES * LANES;
    }

    /** {@code rows[k][j]} (K rows of length ≥ d) in the layout above: d·K₄ doubles, padding 0. */
    static double[] interleave(double[][] rows, int d) {
        int kp = padded(rows.length);
        double[] out = new double[d * kp];
        for (int k = 0; k < rows.length; k++) {
            for (int j = 0; j < d; j++) {
                out[j * kp + k] = rows[k][j];
            }
        }
        return out;
    }

    /**
     * Whether scores use the vector form ({@code VectorClassLanes}): with the module, once {@link VectorWarmUp} has
     * compiled it. Otherwise the compiled forms sum one class after the other over their per-class rows, the same
     * bits: without vectors that is the faster form (the out-of-order core overlaps consecutive classes' chains;
     * four scalar accumulators over this layout, or one class at a time over it, measured slower,
     * {@code ClassLanesCpuTime}).
     */
    static boolean vector() {
        return KernelChoice.VECTOR && VectorWarmUp.done();
    }
}
