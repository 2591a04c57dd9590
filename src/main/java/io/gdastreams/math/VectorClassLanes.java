package io.gdastreams.math;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link ClassLanes}' sums with the Vector API: lane t of a vector is class g + t, and accumulates exactly that
 * class's scalar sum (subtract, multiply, multiply, add, each rounded; nothing is added across lanes), so the bits
 * are those of the one-class loop, s ← s + v·v for j = 0 … d−1. Two groups of four classes are taken per pass when
 * there are eight or more classes, so that two addition chains overlap. Loaded only behind {@code KernelChoice.VECTOR},
 * as {@link VectorTriangularKernel} is.
 */
final class VectorClassLanes {

    private static final VectorSpecies<Double> FOUR = DoubleVector.SPECIES_256;

    private VectorClassLanes() {
    }

    /**
     * q[at + k] = Σ_j ((y_j − c_kj)·w_kj)² for k &lt; K₄ = {@code kp} (padding classes included), {@code centres} and
     * {@code scales} in {@link ClassLanes}' layout. Allocates nothing (once compiled).
     */
    static void scaledSquares(double[] y, double[] centres, double[] scales, int d, int kp, double[] q, int at) {
        int g = 0;
        for (; g + 8 <= kp; g += 8) {
            DoubleVector s0 = DoubleVector.zero(FOUR);
            DoubleVector s1 = s0;
            for (int j = 0, c = g; j < d; j++, c += kp) {
                DoubleVector yj = DoubleVector.broadcast(FOUR, y[j]);
                DoubleVector v0 = yj.sub(DoubleVector.fromArray(FOUR, centres, c))
                        .mul(DoubleVector.fromArray(FOUR, scales, c));
                DoubleVector v1 = yj.sub(DoubleVector.fromArray(FOUR, centres, c + 4))
                        .mul(DoubleVector.fromArray(FOUR, scales, c + 4));
                s0 = s0.add(v0.mul(v0));
                s1 = s1.add(v1.mul(v1));
            }
            s0.intoArray(q, at + g);
            s1.intoArray(q, at + g + 4);
        }
        if (g < kp) {
            DoubleVector s = DoubleVector.zero(FOUR);
            for (int j = 0, c = g; j < d; j++, c += kp) {
                DoubleVector v = DoubleVector.broadcast(FOUR, y[j]).sub(DoubleVector.fromArray(FOUR, centres, c))
                        .mul(DoubleVector.fromArray(FOUR, scales, c));
                s = s.add(v.mul(v));
            }
            s.intoArray(q, at + g);
        }
    }

    /** q[at + k] = Σ_j (y_j − c_kj)² for k &lt; K₄; as {@link #scaledSquares} without the scale. */
    static void squares(double[] y, double[] centres, int d, int kp, double[] q, int at) {
        int g = 0;
        for (; g + 8 <= kp; g += 8) {
            DoubleVector s0 = DoubleVector.zero(FOUR);
            DoubleVector s1 = s0;
            for (int j = 0, c = g; j < d; j++, c += kp) {
                DoubleVector yj = DoubleVector.broadcast(FOUR, y[j]);
                DoubleVector v0 = yj.sub(DoubleVector.fromArray(FOUR, centres, c));
                DoubleVector v1 = yj.sub(DoubleVector.fromArray(FOUR, centres, c + 4));
                s0 = s0.add(v0.mul(v0));
                s1 = s1.add(v1.mul(v1));
            }
            s0.intoArray(q, at + g);
            s1.intoArray(q, at + g + 4);
        }
        if (g < kp) {
            DoubleVector s = DoubleVector.zero(FOUR);
            for (int j = 0, c = g; j < d; j++, c += kp) {
                DoubleVector v = DoubleVector.broadcast(FOUR, y[j]).sub(DoubleVector.fromArray(FOUR, centres, c));
                s = s.add(v.mul(v));
            }
            s.intoArray(q, at + g);
        }
    }

    /**
     * {@link #scaledSquares} ({@code scales} not null) or {@link #squares} ({@code scales} null) of four points at
     * once, point p's y_j at {@code y_p[j]}: q[at + p·K₄ + k]. Each lane of each point accumulates exactly that
     * point's one-point sum in its order (the same bits); the four points' addition chains are independent, so they
     * overlap, and each load of the class lanes serves four points.
     */
    static void ofFour(double[] y0, double[] y1, double[] y2, double[] y3, double[] centres, double[] scales, int d,
                       int kp, double[] q, int at) {
        for (int g = 0; g < kp; g += 4) {
            DoubleVector s0 = DoubleVector.zero(FOUR);
            DoubleVector s1 = s0;
            DoubleVector s2 = s0;
            DoubleVector s3 = s0;
            if (scales != null) {
                for (int j = 0, c = g; j < d; j++, c += kp) {
                    DoubleVector cj = DoubleVector.fromArray(FOUR, centres, c);
                    DoubleVector wj = DoubleVector.fromArray(FOUR, scales, c);
                    DoubleVector v0 = DoubleVector.broadcast(FOUR, y0[j]).sub(cj).mul(wj);
                    DoubleVector v1 = DoubleVector.broadcast(FOUR, y1[j]).sub(cj).mul(wj);
                    DoubleVector v2 = DoubleVector.broadcast(FOUR, y2[j]).sub(cj).mul(wj);
                    DoubleVector v3 = DoubleVector.broadcast(FOUR, y3[j]).sub(cj).mul(wj);
                    s0 = s0.add(v0.mul(v0));
                    s1 = s1.add(v1.mul(v1));
                    s2 = s2.add(v2.mul(v2));
                    s3 = s3.add(v3.mul(v3));
                }
            } else {
                for (int j = 0, c = g; j < d; j++, c += kp) {
                    DoubleVector cj = DoubleVector.fromArray(FOUR, centres, c);
                    DoubleVector v0 = DoubleVector.broadcast(FOUR, y0[j]).sub(cj);
                    DoubleVector v1 = DoubleVector.broadcast(FOUR, y1[j]).sub(cj);
                    DoubleVector v2 = DoubleVector.broadcast(FOUR, y2[j]).sub(cj);
                    DoubleVector v3 = DoubleVector.broadcast(FOUR, y3[j]).sub(cj);
                    s0 = s0.add(v0.mul(v0));
                    s1 = s1.add(v1.mul(v1));
                    s2 = s2.add(v2.mul(v2));
                    s3 = s3.add(v3.mul(v3));
                }
            }
            s0.intoArray(q, at + g);
            s1.intoArray(q, at + kp + g);
            s2.intoArray(q, at + 2 * kp + g);
            s3.intoArray(q, at + 3 * kp + g);
        }
    }
}
