package io.gdastreams.math;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The kernels of {@link ScoringKernel#FAST}: the EXACT kernels' formulas and layouts ({@link TriangularKernel},
 * {@link ClassLanes}) with the order of operations chosen for speed. Loaded only behind {@code KernelChoice.VECTOR},
 * as {@link VectorTriangularKernel} is.
 *
 * <h2>What is faster, and why the bits differ</h2>
 * At d = 16 a score waits on its longest chain of dependent additions (4 cycles each) and on the posterior step
 * (the exponentials, then their sum, then a logarithm and K divisions), not on the number of flops: measured, the
 * posterior step of three classes takes ≈ 38 ns as a chain, against ≈ 23 ns for its operations issued side by
 * side. So here:
 * <ul>
 *   <li>every sum of products is a fused multiply-add (one rounding per term instead of two);</li>
 *   <li>every sum over j is four partial sums (j mod 4), added at the end: a chain of ⌈d/4⌉ + 2 instead of d;</li>
 *   <li>the posterior stays in vector registers: log-joints c_k − ½q_k (c_k = log π_k − ½ d log 2π − ½ log det Σ_k
 *   precomputed) for four classes in one FMA, the largest by a lane reduction, the four exponentials in one
 *   Vector API call (Intel's short-vector math library on x86-64), and one reciprocal multiplied in.</li>
 * </ul>
 * Each of these changes the last bits of q_k, log p(x) and p(k | x) against EXACT. The forward error stays of the
 * same order: a partial-sum dot product with FMA has |ŝ − s| ≤ γ_{⌈d/4⌉+2} Σ|terms| (γ_n = nu/(1 − nu)), smaller
 * than the sequential sum's γ_d; the vector exponential is within 1 ulp (the Vector API's contract for EXP); the
 * reciprocal adds one rounding per probability. {@code FastKernelTest} bounds the differences to EXACT.
 */
final class VectorFastKernels {

    private static final VectorSpecies<Double> FOUR = DoubleVector.SPECIES_256;

    private VectorFastKernels() {
    }

    /**
     * q[at + k] = Σ_j ((y_j − c_kj)·w_kj)² for k &lt; K₄ = {@code kp} (padding included), {@link ClassLanes}' layout;
     * four partial sums per class. Allocates nothing (once compiled).
     */
    static void scaledSquares(double[] y, double[] centres, double[] scales, int d, int kp, double[] q, int at) {
        for (int g = 0; g < kp; g += 4) {
            DoubleVector s0 = DoubleVector.zero(FOUR);
            DoubleVector s1 = s0;
            DoubleVector s2 = s0;
            DoubleVector s3 = s0;
            int j = 0;
            int c = g;
            for (; j + 4 <= d; j += 4, c += 4 * kp) {
                DoubleVector v0 = DoubleVector.broadcast(FOUR, y[j]).sub(DoubleVector.fromArray(FOUR, centres, c))
                        .mul(DoubleVector.fromArray(FOUR, scales, c));
                DoubleVector v1 = DoubleVector.broadcast(FOUR, y[j + 1])
                        .sub(DoubleVector.fromArray(FOUR, centres, c + kp))
                        .mul(DoubleVector.fromArray(FOUR, scales, c + kp));
                DoubleVector v2 = DoubleVector.broadcast(FOUR, y[j + 2])
                        .sub(DoubleVector.fromArray(FOUR, centres, c + 2 * kp))
                        .mul(DoubleVector.fromArray(FOUR, scales, c + 2 * kp));
                DoubleVector v3 = DoubleVector.broadcast(FOUR, y[j + 3])
                        .sub(DoubleVector.fromArray(FOUR, centres, c + 3 * kp))
                        .mul(DoubleVector.fromArray(FOUR, scales, c + 3 * kp));
                s0 = v0.fma(v0, s0);
                s1 = v1.fma(v1, s1);
                s2 = v2.fma(v2, s2);
                s3 = v3.fma(v3, s3);
            }
            for (; j < d; j++, c += kp) {
                DoubleVector v = DoubleVector.broadcast(FOUR, y[j]).sub(DoubleVector.fromArray(FOUR, centres, c))
                        .mul(DoubleVector.fromArray(FOUR, scales, c));
                s0 = v.fma(v, s0);
            }
            s0.add(s1).add(s2.add(s3)).intoArray(q, at + g);
        }
    }

    /** q[at + k] = Σ_j (y_j − c_kj)² for k &lt; K₄; as {@link #scaledSquares} without the scale. */
    static void squares(double[] y, double[] centres, int d, int kp, double[] q, int at) {
        for (int g = 0; g < kp; g += 4) {
            DoubleVector s0 = DoubleVector.zero(FOUR);
            DoubleVector s1 = s0;
            DoubleVector s2 = s0;
            DoubleVector s3 = s0;
            int j = 0;
            int c = g;
            for (; j + 4 <= d; j += 4, c += 4 * kp) {
                DoubleVector v0 = DoubleVector.broadcast(FOUR, y[j]).sub(DoubleVector.fromArray(FOUR, centres, c));
                DoubleVector v1 = DoubleVector.broadcast(FOUR, y[j + 1])
                        .sub(DoubleVector.fromArray(FOUR, centres, c + kp));
                DoubleVector v2 = DoubleVector.broadcast(FOUR, y[j + 2])
                        .sub(DoubleVector.fromArray(FOUR, centres, c + 2 * kp));
                DoubleVector v3 = DoubleVector.broadcast(FOUR, y[j + 3])
                        .sub(DoubleVector.fromArray(FOUR, centres, c + 3 * kp));
                s0 = v0.fma(v0, s0);
                s1 = v1.fma(v1, s1);
                s2 = v2.fma(v2, s2);
                s3 = v3.fma(v3, s3);
            }
            for (; j < d; j++, c += kp) {
                DoubleVector v = DoubleVector.broadcast(FOUR, y[j]).sub(DoubleVector.fromArray(FOUR, centres, c));
                s0 = v.fma(v, s0);
            }
            s0.add(s1).add(s2.add(s3)).intoArray(q, at + g);
        }
    }

    /**
     * r ← L⁻¹r (the first d entries, in place) with L⁻¹ at {@code base} of {@code p} in {@link TriangularKernel}'s
     * layout; returns ‖L⁻¹r‖². Each block of four rows is one vector sum over its shared columns, in four partial sums
     * (column j mod 4); blocks go from the highest down, so z overwrites r in place as in the EXACT kernel, and
     * consecutive blocks, being independent, overlap in the core.
     */
    static double whiten(double[] p, int base, double[] r, int d) {
        int m = d & 3;
        double q = 0.0;
        for (int a = d - 4; a >= m; a -= 4) {
            q += block(p, base + a * (a + 1) / 2, r, a);
        }
        for (int i = m - 1; i >= 0; i--) {
            int o = base + i * (i + 1) / 2;
            double s = 0.0;
            for (int j = 0; j <= i; j++) {
                s = Math.fma(p[o + j], r[j], s);
            }
            r[i] = s;
            q = Math.fma(s, s, q);
        }
        return q;
    }

    /** Rows a … a+3 of the block at {@code o}: written to r[a … a+3]; returns the sum of their squares. */
    private static double block(double[] p, int o, double[] r, int a) {
        DoubleVector s0 = DoubleVector.zero(FOUR);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        int j = 0;
        for (; j + 3 <= a; j += 4) {
            int c = o + 4 * j;
            s0 = DoubleVector.fromArray(FOUR, p, c).fma(DoubleVector.broadcast(FOUR, r[j]), s0);
            s1 = DoubleVector.fromArray(FOUR, p, c + 4).fma(DoubleVector.broadcast(FOUR, r[j + 1]), s1);
            s2 = DoubleVector.fromArray(FOUR, p, c + 8).fma(DoubleVector.broadcast(FOUR, r[j + 2]), s2);
            s3 = DoubleVector.fromArray(FOUR, p, c + 12).fma(DoubleVector.broadcast(FOUR, r[j + 3]), s3);
        }
        for (; j <= a; j++) {
            s0 = DoubleVector.fromArray(FOUR, p, o + 4 * j).fma(DoubleVector.broadcast(FOUR, r[j]), s0);
        }
        DoubleVector s = s0.add(s1).add(s2.add(s3));
        // The triangle the four rows do not share: columns a+1 … a+3 (reading r before the block overwrites it).
        int t = o + 4 * (a + 1);
        double r1 = r[a + 1];
        double r2 = r[a + 2];
        double r3 = r[a + 3];
        double sa = s.lane(0);
        double sb = Math.fma(p[t], r1, s.lane(1));
        double sc = Math.fma(p[t + 2], r2, Math.fma(p[t + 1], r1, s.lane(2)));
        double se = Math.fma(p[t + 5], r3, Math.fma(p[t + 4], r2, Math.fma(p[t + 3], r1, s.lane(3))));
        r[a] = sa;
        r[a + 1] = sb;
        r[a + 2] = sc;
        r[a + 3] = se;
        return Math.fma(sa, sa, sb * sb) + Math.fma(sc, sc, se * se);
    }

    /**
     * The posterior from the squared distances q[at + k] (k &lt; K₄, padding entries finite or +∞; overwritten):
     * joint_k = c_k − ½q_k (+ added_k), written to {@code jointOut} when it is not null; p(k | x) into
     * {@code out[0 … classes)}; returns log p(x). {@code constants}: c_k for k &lt; classes, −∞ for the padding (so its
     * probability is 0), length K₄. Returns NaN, and leaves {@code out} undefined, when the largest joint is not
     * finite (every class −∞, or a +∞ or NaN somewhere): the caller then takes the EXACT path, which defines those
     * cases. Allocates nothing (once compiled).
     */
    static double posterior(double[] q, int at, double[] constants, double[] added, double[] out, double[] jointOut,
                            int classes) {
        int kp = constants.length;
        DoubleVector minusHalf = DoubleVector.broadcast(FOUR, -0.5);
        if (kp == 4 && added == null && jointOut == null) {
            // Up to four classes, the common case: nothing leaves the registers until the probabilities.
            DoubleVector joint = DoubleVector.fromArray(FOUR, q, at)
                    .fma(minusHalf, DoubleVector.fromArray(FOUR, constants, 0));
            double max = joint.reduceLanes(VectorOperators.MAX);
            if (!(max > Double.NEGATIVE_INFINITY && max < Double.POSITIVE_INFINITY)) {
                return Double.NaN;
            }
            DoubleVector e = joint.sub(max).lanewise(VectorOperators.EXP);
            double sum = e.reduceLanes(VectorOperators.ADD);
            DoubleVector probabilities = e.mul(1.0 / sum);
            for (int k = 0; k < classes; k++) {
                out[k] = probabilities.lane(k);
            }
            return max + Math.log(sum);
        }
        for (int g = 0; g < kp; g += 4) {
            DoubleVector.fromArray(FOUR, q, at + g).fma(minusHalf, DoubleVector.fromArray(FOUR, constants, g))
                    .intoArray(q, at + g);
        }
        if (added != null) {
            for (int k = 0; k < classes; k++) {
                q[at + k] += added[k];
            }
        }
        if (jointOut != null) {
            System.arraycopy(q, at, jointOut, 0, classes);
        }
        DoubleVector largest = DoubleVector.fromArray(FOUR, q, at);
        for (int g = 4; g < kp; g += 4) {
            largest = largest.max(DoubleVector.fromArray(FOUR, q, at + g));
        }
        double max = largest.reduceLanes(VectorOperators.MAX);
        if (!(max > Double.NEGATIVE_INFINITY && max < Double.POSITIVE_INFINITY)) {
            return Double.NaN;
        }
        DoubleVector sums = DoubleVector.zero(FOUR);
        for (int g = 0; g < kp; g += 4) {
            DoubleVector e = DoubleVector.fromArray(FOUR, q, at + g).sub(max).lanewise(VectorOperators.EXP);
            e.intoArray(q, at + g);
            sums = sums.add(e);
        }
        double sum = sums.reduceLanes(VectorOperators.ADD);
        double inverse = 1.0 / sum;
        int g = 0;
        for (; g + 4 <= classes; g += 4) {
            DoubleVector.fromArray(FOUR, q, at + g).mul(inverse).intoArray(out, g);
        }
        for (int k = g; k < classes; k++) {
            out[k] = q[at + k] * inverse;
        }
        return max + Math.log(sum);
    }
}
