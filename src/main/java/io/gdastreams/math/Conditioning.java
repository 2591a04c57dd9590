package io.gdastreams.math;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The 2-norm condition number of a covariance matrix, κ(Σ) = λ_max / λ_min: how many digits a solve with Σ may
 * lose (about log10 κ). A model whose class covariance has κ near 1/ε (≈ 4.5e15) scores that class on rounding
 * noise unless regularised; {@code inspect} shows it per class for that reason.
 */
public final class Conditioning {

    private Conditioning() {
    }

    /**
     * κ(Σ) of a symmetric matrix from its eigenvalues: λ_max / λ_min, or +∞ when λ_min ≤ 0 (singular or not
     * positive definite, as a class with fewer points than features is). A 0×0 matrix has κ = 1.
     */
    public static double conditionNumber(double[][] symmetric) {
        int n = symmetric.length;
        if (n == 0) {
            return 1.0;
        }
        DMatrixRMaj matrix = new DMatrixRMaj(symmetric);
        if (matrix.numCols != n) {
            throw new IllegalArgumentException("not square: " + n + "×" + matrix.numCols);
        }
        EigenDecomposition_F64<DMatrixRMaj> eigen = DecompositionFactory_DDRM.eig(n, false, true);
        if (!eigen.decompose(matrix)) {
            throw new IllegalArgumentException("the eigenvalues did not converge");
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double lambda = eigen.getEigenvalue(i).getReal();
            min = Math.min(min, lambda);
            max = Math.max(max, lambda);
        }
        return min <= 0 ? Double.POSITIVE_INFINITY : max / min;
    }
}
