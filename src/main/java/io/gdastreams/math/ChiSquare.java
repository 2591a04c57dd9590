package io.gdastreams.math;

import org.apache.commons.numbers.gamma.RegularizedGamma;

/**
 * The upper tail of the chi-square distribution, P(χ²_ν ≥ x) = Q(ν/2, x/2), where Q is the regularised upper
 * incomplete gamma function. Q comes from Apache Commons Numbers (the same function Commons Statistics' chi-square
 * distribution uses), accurate to a few ulps over the whole range, including tails far below 1e-300 that a
 * 1 − CDF would round to 0; hand-written series and continued fractions are where such code usually goes wrong.
 */
public final class ChiSquare {

    private ChiSquare() {
    }

    /**
     * P(χ²_ν ≥ x) for {@code degreesOfFreedom} ν ≥ 0. ν = 0 is the point mass at 0, so the tail is 1 for every
     * x ≥ 0 (a point with no observed coordinate is never improbable); x ≤ 0 gives 1. Throws
     * IllegalArgumentException for a negative ν or a NaN x.
     */
    public static double survival(int degreesOfFreedom, double x) {
        if (degreesOfFreedom < 0) {
            throw new IllegalArgumentException("degrees of freedom must be >= 0, got " + degreesOfFreedom);
        }
        if (Double.isNaN(x)) {
            throw new IllegalArgumentException("x is NaN");
        }
        if (degreesOfFreedom == 0 || x <= 0.0) {
            return 1.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        return RegularizedGamma.Q.value(0.5 * degreesOfFreedom, 0.5 * x);
    }
}
