package io.gdastreams.math;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Run by {@code KernelFallbackTest} in a JVM without {@code --add-modules jdk.incubator.vector}: prints the kernel
 * choice, then the bits of log p(x) and of every p(k | x) for FULL, TIED and DIAG models at d = 8, 16, 33, 64
 * (the dimensions where the vector kernels would be chosen), one value per line, then the same points scored as a
 * group ({@link Discriminant#score(double[][], int, double[][], double[])}), each value prefixed "group ".
 */
public final class KernelFallbackMain {

    private KernelFallbackMain() {
    }

    /** The lines: "vector=true|false", then one hexadecimal long per value. */
    static List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("vector=" + KernelChoice.VECTOR);
        SplittableRandom random = new SplittableRandom(20261125L);
        for (CovarianceType type : new CovarianceType[] {CovarianceType.FULL, CovarianceType.TIED,
                CovarianceType.DIAG}) {
            for (int d : new int[] {8, 16, 33, 64}) {
                Discriminant discriminant = Discriminant.compile(
                        ScoringKernelTest.model(type, d, 1.0, 1e3, random.nextLong()));
                double[] out = new double[3];
                double[][] points = new double[5][];
                for (int i = 0; i < 5; i++) {
                    points[i] = ScoringKernelTest.point(d, 1.0, random);
                    double logDensity = discriminant.score(points[i], null, out);
                    lines.add(Long.toHexString(Double.doubleToRawLongBits(logDensity)));
                    for (double p : out) {
                        lines.add(Long.toHexString(Double.doubleToRawLongBits(p)));
                    }
                }
                // The same points as a group (four through the group kernel, one alone).
                double[][] posteriors = new double[5][3];
                double[] logDensities = new double[5];
                discriminant.score(points, 5, posteriors, logDensities);
                for (int i = 0; i < 5; i++) {
                    lines.add("group " + Long.toHexString(Double.doubleToRawLongBits(logDensities[i])));
                    for (double p : posteriors[i]) {
                        lines.add("group " + Long.toHexString(Double.doubleToRawLongBits(p)));
                    }
                }
            }
        }
        return lines;
    }

    public static void main(String[] args) {
        lines().forEach(System.out::println);
    }
}
