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
 * classes are interleaved: a one-class sum is a chain of d dependent additions (4 cycles each), so K classes one
 * after the other cost ≈ 4·K·d cycles of latency; side by side, in four scalar accumulators or in the four lanes of
 * a vector ({@code VectorClassLanes}, chosen as the triangular kernel is, {@link KernelChoice}), they cost ≈ 4·d.
 * Nothing is added across classes, so the grouping changes no order.
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
     * q[at + k] = Σ_j ((y_j − c_kj)·w_kj)² for k &lt; K₄ (padding classes included). {@code centres} and
     * {@code scales} in the layout above, K₄ = kp. Allocates nothing.
     */
    static void scaledSquares(double[] y, double[] centres, double[] scales, int d, int kp, double[] q, int at) {
        if (KernelChoice.VECTOR && VectorWarmUp.done()) {
            VectorClassLanes.scaledSquares(y, centres, scales, d, kp, q, at);
        } else {
            scaledSquaresScalar(y, centres, scales, d, kp, q, at);
        }
    }

    /** q[at + k] = Σ_j (y_j − c_kj)² for k &lt; K₄; as {@link #scaledSquares} without the scale. */
    static void squares(double[] y, double[] centres, int d, int kp, double[] q, int at) {
        if (KernelChoice.VECTOR && VectorWarmUp.done()) {
            VectorClassLanes.squares(y, centres, d, kp, q, at);
        } else {
            squaresScalar(y, centres, d, kp, q, at);
        }
    }

    /** {@link #scaledSquares} in plain Java, four classes per pass: the reference order. */
    static void scaledSquaresScalar(double[] y, double[] centres, double[] scales, int d, int kp, double[] q,
            int at) {
        for (int g = 0; g < kp; g += LANES) {
            double s0 = 0.0;
            double s1 = 0.0;
            double s2 = 0.0;
            double s3 = 0.0;
            for (int j = 0, c = g; j < d; j++, c += kp) {
                double yj = y[j];
                double v0 = (yj - centres[c]) * scales[c];
                double v1 = (yj - centres[c + 1]) * scales[c + 1];
                double v2 = (yj - centres[c + 2]) * scales[c + 2];
                double v3 = (yj - centres[c + 3]) * scales[c + 3];
                s0 += v0 * v0;
                s1 += v1 * v1;
                s2 += v2 * v2;
                s3 += v3 * v3;
            }
            q[at + g] = s0;
            q[at + g + 1] = s1;
            q[at + g + 2] = s2;
            q[at + g + 3] = s3;
        }
    }

    /** {@link #squares} in plain Java, four classes per pass: the reference order. */
    static void squaresScalar(double[] y, double[] centres, int d, int kp, double[] q, int at) {
        for (int g = 0; g < kp; g += LANES) {
            double s0 = 0.0;
            double s1 = 0.0;
            double s2 = 0.0;
            double s3 = 0.0;
            for (int j = 0, c = g; j < d; j++, c += kp) {
                double yj = y[j];
                double v0 = yj - centres[c];
                double v1 = yj - centres[c + 1];
                double v2 = yj - centres[c + 2];
                double v3 = yj - centres[c + 3];
                s0 += v0 * v0;
                s1 += v1 * v1;
                s2 += v2 * v2;
                s3 += v3 * v3;
            }
            q[at + g] = s0;
            q[at + g + 1] = s1;
            q[at + g + 2] = s2;
            q[at + g + 3] = s3;
        }
    }
}
