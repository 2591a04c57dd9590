package io.gdastreams.math;

import java.util.Optional;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.TriangularSolver_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;

/**
 * Lower Cholesky factor L of a symmetric positive definite matrix A = LLᵀ. Immutable.
 *
 * <p>Failure is a value: {@link #of} returns {@code Optional.empty()} when A is not numerically positive
 * definite. Besides EJML's own test (a pivot ≤ 0), a pivot with L_ii² &lt; {@value #MIN_RELATIVE_PIVOT}·A_ii counts
 * as failure: L_ii² is the variance of coordinate i left after conditioning on the coordinates before it, and a
 * ratio that small is rounding noise of an exactly singular matrix (collinear features, d &gt; n_k), not
 * information. Accepting it would give a log-determinant and Mahalanobis distances made of noise.
 */
final class CholeskyFactor {

    /** Smallest accepted L_ii² / A_ii (see class comment). */
    static final double MIN_RELATIVE_PIVOT = 1e-12;

    private final int d;
    /** L, d × d row-major; the strict upper triangle is zero. */
    private final double[] lower;
    /** Σ log L_ii = ½ log det A. */
    private final double halfLogDeterminant;

    private CholeskyFactor(int d, double[] lower, double halfLogDeterminant) {
        this.d = d;
        this.lower = lower;
        this.halfLogDeterminant = halfLogDeterminant;
    }

    /** Factorises {@code a} (d × d, symmetric, not modified); empty when it is not positive definite. */
    static Optional<CholeskyFactor> of(double[][] a) {
        int d = a.length;
        DMatrixRMaj m = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            if (a[i].length != d) {
                throw new IllegalArgumentException("matrix is not square");
            }
            for (int j = 0; j < d; j++) {
                double v = a[i][j];
                if (!Double.isFinite(v)) {
                    return Optional.empty();
                }
                m.unsafe_set(i, j, v);
            }
        }
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
        if (!chol.decompose(m)) {
            return Optional.empty();
        }
        double[] lower = chol.getT(null).getData().clone();
        double halfLogDet = 0.0;
        for (int i = 0; i < d; i++) {
            double lii = lower[i * d + i];
            if (!(lii * lii >= MIN_RELATIVE_PIVOT * a[i][i]) || !(lii > 0.0) || !Double.isFinite(lii)) {
                return Optional.empty();
            }
            halfLogDet += Math.log(lii);
        }
        for (int p = 0; p < lower.length; p++) {
            if (!Double.isFinite(lower[p])) {
                return Optional.empty();
            }
        }
        return Optional.of(new CholeskyFactor(d, lower, halfLogDet));
    }

    int dimension() {
        return d;
    }

    /** Σ log L_ii = ½ log det A. */
    double halfLogDeterminant() {
        return halfLogDeterminant;
    }

    /** b ← L⁻¹ b (forward substitution). {@code b}: length d, modified. */
    void solveLower(double[] b) {
        TriangularSolver_DDRM.solveL(lower, b, d);
    }

    /** b ← L⁻ᵀ b (back substitution with Lᵀ). {@code b}: length d, modified. */
    void solveLowerTransposed(double[] b) {
        TriangularSolver_DDRM.solveTranL(lower, b, d);
    }

    /** L_ij. */
    double get(int i, int j) {
        return lower[i * d + j];
    }

    /** A copy of L as a d × d array. */
    double[][] toArray() {
        double[][] l = new double[d][d];
        for (int i = 0; i < d; i++) {
            System.arraycopy(lower, i * d, l[i], 0, i + 1);
        }
        return l;
    }
}
