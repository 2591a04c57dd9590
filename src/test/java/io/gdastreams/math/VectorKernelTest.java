package io.gdastreams.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The vector triangular kernel against the scalar one, bit for bit (==, no tolerance) over random SPD matrices at
 * every d from 1 to 70; the layout against its definition; and the choice of kernel with and without the module.
 * The test JVMs run with {@code --add-modules jdk.incubator.vector} (pom.xml), so the vector kernel is there.
 */
class VectorKernelTest {

    private static final long SEED = 20261125L;

    /** A random SPD matrix A = M Mᵀ + d·I scaled by a spread of 10^±3 per coordinate (condition up to ≈ 10¹²). */
    private static double[][] spd(int d, SplittableRandom random) {
        double[][] m = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                m[i][j] = random.nextGaussian();
            }
        }
        double[] scale = new double[d];
        for (int i = 0; i < d; i++) {
            scale[i] = Math.pow(10.0, random.nextDouble(-3.0, 3.0));
        }
        double[][] a = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double s = i == j ? d : 0.0;
                for (int k = 0; k < d; k++) {
                    s += m[i][k] * m[j][k];
                }
                a[i][j] = s * scale[i] * scale[j];
            }
        }
        return a;
    }

    @Test
    void theLayoutShouldPlaceEveryEntryOnceInTheTriangle() {
        for (int d = 1; d <= 70; d++) {
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < d; i++) {
                for (int j = 0; j <= i; j++) {
                    int at = TriangularKernel.index(d, i, j);
                    assertTrue(at >= 0 && at < TriangularKernel.packedSize(d), "d=" + d + " (" + i + "," + j + ")");
                    assertTrue(seen.add(at), "d=" + d + " (" + i + "," + j + ") twice at " + at);
                }
            }
            assertEquals(d * (d + 1) / 2, seen.size());
        }
    }

    @Test
    void theVectorKernelShouldGiveTheScalarKernelsBits() {
        assertTrue(KernelChoice.VECTOR, "the tests run with the module and AVX2 (pom.xml argLine)");
        SplittableRandom random = new SplittableRandom(SEED);
        for (int d = 1; d <= 70; d++) {
            for (int trial = 0; trial < 5; trial++) {
                CholeskyFactor factor = CholeskyFactor.of(spd(d, random)).orElseThrow();
                int base = 3 + trial;
                double[] packed = new double[base + TriangularKernel.packedSize(d) + 2];
                TriangularKernel.packedInverse(factor, packed, base);
                double[] r = new double[d + 1];
                for (int j = 0; j < d; j++) {
                    r[j] = Math.pow(10.0, random.nextDouble(-3.0, 3.0)) * random.nextGaussian();
                }
                r[d] = 7.0; // beyond d: neither kernel may touch it
                double[] scalar = r.clone();
                double[] vector = r.clone();
                double qs = TriangularKernel.whitenScalar(packed, base, scalar, d);
                double qv = VectorTriangularKernel.whitenInPlace(packed, base, vector, d);
                String where = "d=" + d + " trial " + trial;
                assertEquals(Double.doubleToRawLongBits(qs), Double.doubleToRawLongBits(qv), where + ": q");
                for (int j = 0; j <= d; j++) {
                    assertEquals(Double.doubleToRawLongBits(scalar[j]), Double.doubleToRawLongBits(vector[j]),
                            where + ": z_" + j + " " + scalar[j] + " vs " + vector[j]);
                }
                // Not trivially equal: the product changed r.
                assertTrue(d == 0 || scalar[d - 1] != r[d - 1] || qs == 0.0, where);
            }
        }
    }

    @Test
    void theScalarKernelShouldComputeTheRowProductsInTheDocumentedOrder() {
        // An independent statement of the order (row-major indices, the four-row blocks from the last): plain
        // sums over columns 0 … a, then the unshared triangle grouped as the kernel documents it.
        SplittableRandom random = new SplittableRandom(SEED + 1);
        for (int d = 1; d <= 70; d++) {
            CholeskyFactor factor = CholeskyFactor.of(spd(d, random)).orElseThrow();
            double[] packed = new double[TriangularKernel.packedSize(d)];
            TriangularKernel.packedInverse(factor, packed, 0);
            double[][] l = new double[d][d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j <= i; j++) {
                    l[i][j] = packed[TriangularKernel.index(d, i, j)];
                }
            }
            double[] r = new double[d];
            for (int j = 0; j < d; j++) {
                r[j] = random.nextGaussian();
            }
            double[] z = new double[d];
            double q = 0.0;
            int m = d % 4;
            for (int a = d - 4; a >= m; a -= 4) {
                double[] s = new double[4];
                for (int t = 0; t < 4; t++) {
                    for (int j = 0; j <= a; j++) {
                        s[t] += l[a + t][j] * r[j];
                    }
                }
                s[1] += l[a + 1][a + 1] * r[a + 1];
                s[2] += l[a + 2][a + 1] * r[a + 1] + l[a + 2][a + 2] * r[a + 2];
                s[3] += l[a + 3][a + 1] * r[a + 1] + l[a + 3][a + 2] * r[a + 2] + l[a + 3][a + 3] * r[a + 3];
                System.arraycopy(s, 0, z, a, 4);
                q += (s[0] * s[0] + s[1] * s[1]) + (s[2] * s[2] + s[3] * s[3]);
            }
            for (int i = m - 1; i >= 0; i--) {
                for (int j = 0; j <= i; j++) {
                    z[i] += l[i][j] * r[j];
                }
                q += z[i] * z[i];
            }
            double[] actual = r.clone();
            assertEquals(q, TriangularKernel.whitenScalar(packed, 0, actual, d), 0.0, "d=" + d);
            for (int i = 0; i < d; i++) {
                assertEquals(z[i], actual[i], 0.0, "d=" + d + " z_" + i);
            }
        }
    }

    @Test
    void withoutTheModuleTheScalarKernelShouldBeChosen() {
        assertFalse(KernelChoice.vectorKernel(name -> false));
        assertFalse(KernelChoice.vectorKernel(name -> !name.equals(KernelChoice.VECTOR_MODULE)));
        // With the module (this JVM has it, and AVX2) the vector kernel.
        assertTrue(KernelChoice.vectorKernel(KernelChoice.VECTOR_MODULE::equals));
    }

    @Test
    void theCompiledVectorKernelShouldStillGiveTheScalarKernelsBits() {
        // Enough calls that C2 compiles both kernels (the Vector API's intrinsics exist only in compiled code; the
        // first calls run its plain-Java fallback).
        SplittableRandom random = new SplittableRandom(SEED + 2);
        for (int d : new int[] {16, 33, 64, 70}) {
            CholeskyFactor factor = CholeskyFactor.of(spd(d, random)).orElseThrow();
            double[] packed = new double[TriangularKernel.packedSize(d)];
            TriangularKernel.packedInverse(factor, packed, 0);
            double[] scalar = new double[d];
            double[] vector = new double[d];
            long mismatches = 0;
            for (int call = 0; call < 20_000; call++) {
                for (int j = 0; j < d; j++) {
                    scalar[j] = random.nextGaussian() * 1e3;
                }
                System.arraycopy(scalar, 0, vector, 0, d);
                double qs = TriangularKernel.whitenScalar(packed, 0, scalar, d);
                double qv = VectorTriangularKernel.whitenInPlace(packed, 0, vector, d);
                mismatches += Double.doubleToRawLongBits(qs) != Double.doubleToRawLongBits(qv) ? 1 : 0;
                for (int j = 0; j < d; j++) {
                    mismatches += Double.doubleToRawLongBits(scalar[j]) != Double.doubleToRawLongBits(vector[j]) ? 1 : 0;
                }
            }
            assertEquals(0L, mismatches, "d=" + d);
        }
    }
}
