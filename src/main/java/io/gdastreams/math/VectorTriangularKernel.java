package io.gdastreams.math;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link TriangularKernel#whitenScalar} with the Vector API (incubator module {@code jdk.incubator.vector}): the
 * same bits, faster. Loaded only when {@link KernelChoice} found the module in the boot layer: it is referred to
 * only behind {@code KernelChoice.VECTOR} (by {@link TriangularKernel#whitenInPlace} and {@link VectorWarmUp}).
 *
 * <h2>Why the same bits</h2>
 * A block of four rows of L⁻¹ is stored column-major ({@link TriangularKernel}), so column j of a block is one
 * 256-bit vector whose lanes are the four rows. Lane t accumulates row a+t exactly as the scalar kernel does:
 * s ← s + (L⁻¹)_{a+t,j}·r_j for j = 0, 1, …, a in that order, a multiply then an addition (each rounded, as the
 * scalar {@code s += p * r} is; a fused multiply-add would round once and differ). Across lanes nothing is added,
 * so the vector width changes no order. The triangle the rows do not share, the store and ‖z‖² are the scalar
 * kernel's own statements on the four lane values.
 *
 * <h2>Why faster</h2>
 * One vector multiply and one vector add do four rows' work, and up to four blocks (16 rows) are accumulated side
 * by side, so that four independent addition chains hide the latency of the add. The blocks of one group share
 * columns 0 … a of the lowest block; the higher blocks then continue alone over their further columns. Nothing of
 * the group is written to r before every block has read the r_j it needs (the product is in place).
 */
final class VectorTriangularKernel {

    private static final VectorSpecies<Double> FOUR = DoubleVector.SPECIES_256;

    private VectorTriangularKernel() {
    }

    /** Whether this CPU runs 256-bit double vectors natively (else the API would emulate them, slowly). */
    static boolean supported() {
        return DoubleVector.SPECIES_PREFERRED.vectorBitSize() >= FOUR.vectorBitSize();
    }

    /** {@link TriangularKernel#whitenInPlace}: r ← L⁻¹r in place, returns ‖L⁻¹r‖²; bit for bit the scalar result. */
    static double whitenInPlace(double[] p, int base, double[] r, int d) {
        int m = d & 3;
        double q = 0.0;
        int a = d - 4;
        for (; a - 12 >= m; a -= 16) {
            q = fourBlocks(p, base, r, a, q);
        }
        for (; a - 4 >= m; a -= 8) {
            q = twoBlocks(p, base, r, a, q);
        }
        if (a >= m) {
            q = oneBlock(p, base, r, a, q);
        }
        return lowRows(p, base, r, m, q);
    }

    /**
     * {@link #whitenInPlace} of four vectors at once (a group's kernel: {@link TiedCovariance},
     * {@link FullCovariance}): r_p ← L⁻¹r_p and q[p] = ‖L⁻¹r_p‖² for p = 0 … 3, each bit for bit the one-vector result.
     * One block of four rows at a time, highest first as there (so each q_p sums its blocks in the same order), for the
     * four vectors side by side: each lane still accumulates its row over j in order, the four vectors' addition chains
     * overlap, and each column of a block is loaded once for the four.
     */
    static void whitenFour(double[] p, int base, double[] r0, double[] r1, double[] r2, double[] r3, int d,
                           double[] q) {
        int m = d & 3;
        double q0 = 0.0;
        double q1 = 0.0;
        double q2 = 0.0;
        double q3 = 0.0;
        for (int a = d - 4; a >= m; a -= 4) {
            int o = base + a * (a + 1) / 2;
            DoubleVector s0 = DoubleVector.zero(FOUR);
            DoubleVector s1 = s0;
            DoubleVector s2 = s0;
            DoubleVector s3 = s0;
            for (int j = 0; j <= a; j++) {
                DoubleVector column = DoubleVector.fromArray(FOUR, p, o + 4 * j);
                s0 = s0.add(column.mul(DoubleVector.broadcast(FOUR, r0[j])));
                s1 = s1.add(column.mul(DoubleVector.broadcast(FOUR, r1[j])));
                s2 = s2.add(column.mul(DoubleVector.broadcast(FOUR, r2[j])));
                s3 = s3.add(column.mul(DoubleVector.broadcast(FOUR, r3[j])));
            }
            q0 = finish(s0.lane(0), s0.lane(1), s0.lane(2), s0.lane(3), p, o, r0, a, q0);
            q1 = finish(s1.lane(0), s1.lane(1), s1.lane(2), s1.lane(3), p, o, r1, a, q1);
            q2 = finish(s2.lane(0), s2.lane(1), s2.lane(2), s2.lane(3), p, o, r2, a, q2);
            q3 = finish(s3.lane(0), s3.lane(1), s3.lane(2), s3.lane(3), p, o, r3, a, q3);
        }
        q[0] = lowRows(p, base, r0, m, q0);
        q[1] = lowRows(p, base, r1, m, q1);
        q[2] = lowRows(p, base, r2, m, q2);
        q[3] = lowRows(p, base, r3, m, q3);
    }

    /**
     * The rows below the blocks (i &lt; m = d mod 4), highest first, as {@link #whitenInPlace} takes them; returns
     * {@code q} with their squares added in that order.
     */
    private static double lowRows(double[] p, int base, double[] r, int m, double q) {
        for (int i = m - 1; i >= 0; i--) {
            int o = base + i * (i + 1) / 2;
            double s = 0.0;
            for (int j = 0; j <= i; j++) {
                s += p[o + j] * r[j];
            }
            r[i] = s;
            q += s * s;
        }
        return q;
    }

    /** Blocks at a, a−4, a−8, a−12 (the first the highest). */
    private static double fourBlocks(double[] p, int base, double[] r, int a0, double q) {
        int a1 = a0 - 4;
        int a2 = a0 - 8;
        int a3 = a0 - 12;
        int o0 = base + a0 * (a0 + 1) / 2;
        int o1 = base + a1 * (a1 + 1) / 2;
        int o2 = base + a2 * (a2 + 1) / 2;
        int o3 = base + a3 * (a3 + 1) / 2;
        DoubleVector s0 = DoubleVector.zero(FOUR);
        DoubleVector s1 = s0;
        DoubleVector s2 = s0;
        DoubleVector s3 = s0;
        int j = 0;
        for (; j <= a3; j++) {
            DoubleVector rj = DoubleVector.broadcast(FOUR, r[j]);
            s0 = s0.add(DoubleVector.fromArray(FOUR, p, o0 + 4 * j).mul(rj));
            s1 = s1.add(DoubleVector.fromArray(FOUR, p, o1 + 4 * j).mul(rj));
            s2 = s2.add(DoubleVector.fromArray(FOUR, p, o2 + 4 * j).mul(rj));
            s3 = s3.add(DoubleVector.fromArray(FOUR, p, o3 + 4 * j).mul(rj));
        }
        for (; j <= a2; j++) {
            DoubleVector rj = DoubleVector.broadcast(FOUR, r[j]);
            s0 = s0.add(DoubleVector.fromArray(FOUR, p, o0 + 4 * j).mul(rj));
            s1 = s1.add(DoubleVector.fromArray(FOUR, p, o1 + 4 * j).mul(rj));
            s2 = s2.add(DoubleVector.fromArray(FOUR, p, o2 + 4 * j).mul(rj));
        }
        for (; j <= a1; j++) {
            DoubleVector rj = DoubleVector.broadcast(FOUR, r[j]);
            s0 = s0.add(DoubleVector.fromArray(FOUR, p, o0 + 4 * j).mul(rj));
            s1 = s1.add(DoubleVector.fromArray(FOUR, p, o1 + 4 * j).mul(rj));
        }
        for (; j <= a0; j++) {
            s0 = s0.add(DoubleVector.fromArray(FOUR, p, o0 + 4 * j).mul(DoubleVector.broadcast(FOUR, r[j])));
        }
        q = finish(s0.lane(0), s0.lane(1), s0.lane(2), s0.lane(3), p, o0, r, a0, q);
        q = finish(s1.lane(0), s1.lane(1), s1.lane(2), s1.lane(3), p, o1, r, a1, q);
        q = finish(s2.lane(0), s2.lane(1), s2.lane(2), s2.lane(3), p, o2, r, a2, q);
        return finish(s3.lane(0), s3.lane(1), s3.lane(2), s3.lane(3), p, o3, r, a3, q);
    }

    /** Blocks at a and a−4. */
    private static double twoBlocks(double[] p, int base, double[] r, int a0, double q) {
        int a1 = a0 - 4;
        int o0 = base + a0 * (a0 + 1) / 2;
        int o1 = base + a1 * (a1 + 1) / 2;
        DoubleVector s0 = DoubleVector.zero(FOUR);
        DoubleVector s1 = s0;
        int j = 0;
        for (; j <= a1; j++) {
            DoubleVector rj = DoubleVector.broadcast(FOUR, r[j]);
            s0 = s0.add(DoubleVector.fromArray(FOUR, p, o0 + 4 * j).mul(rj));
            s1 = s1.add(DoubleVector.fromArray(FOUR, p, o1 + 4 * j).mul(rj));
        }
        for (; j <= a0; j++) {
            s0 = s0.add(DoubleVector.fromArray(FOUR, p, o0 + 4 * j).mul(DoubleVector.broadcast(FOUR, r[j])));
        }
        q = finish(s0.lane(0), s0.lane(1), s0.lane(2), s0.lane(3), p, o0, r, a0, q);
        return finish(s1.lane(0), s1.lane(1), s1.lane(2), s1.lane(3), p, o1, r, a1, q);
    }

    /** The block at a alone. */
    private static double oneBlock(double[] p, int base, double[] r, int a, double q) {
        int o = base + a * (a + 1) / 2;
        DoubleVector s = DoubleVector.zero(FOUR);
        for (int j = 0; j <= a; j++) {
            s = s.add(DoubleVector.fromArray(FOUR, p, o + 4 * j).mul(DoubleVector.broadcast(FOUR, r[j])));
        }
        return finish(s.lane(0), s.lane(1), s.lane(2), s.lane(3), p, o, r, a, q);
    }

    /**
     * The scalar kernel's statements after its column loop, on the four lanes of a block's sum: the unshared
     * triangle (reading the original r_{a+1} … r_{a+3}), the store, and q + ((s_a² + s_b²) + (s_c² + s_e²)). It
     * takes the lanes, not the vector: a vector passed to a method C2 did not inline would be boxed (allocated).
     */
    private static double finish(double sa, double sb, double sc, double se, double[] p, int o, double[] r, int a,
            double q) {
        int t = o + 4 * (a + 1);
        double r1 = r[a + 1];
        double r2 = r[a + 2];
        double r3 = r[a + 3];
        sb += p[t] * r1;
        sc += p[t + 1] * r1 + p[t + 2] * r2;
        se += p[t + 3] * r1 + p[t + 4] * r2 + p[t + 5] * r3;
        r[a] = sa;
        r[a + 1] = sb;
        r[a + 2] = sc;
        r[a + 3] = se;
        return q + ((sa * sa + sb * sb) + (sc * sc + se * se));
    }
}
