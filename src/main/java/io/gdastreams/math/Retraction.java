package io.gdastreams.math;

/**
 * {@link RunningGaussian#retract}: the West recurrence backwards, W' = W − w, μ' = μ − (w/W')(x − μ),
 * S' = S − w·(x − μ')(x − μ)ᵀ, V' = V − w², after the checks that refuse it (nothing changes then). V holds the
 * weights' squares, whose range is twice the weights' own: a retraction that would leave V' below 1e-9 of V is
 * refused as W's is (outside forgetting), since V' would then be mostly V's rounding. Since
 * x − μ' = (x − μ)·W/W', the downdate is the rank-one S' = S − (wW/W')·δδᵀ (its diagonal only, for a diagonal
 * statistic, whose only check is then the diagonal one).
 */
final class Retraction {

    /** u = 2⁻⁵³, the relative rounding of one operation. */
    private static final double UNIT_ROUNDOFF = Math.ulp(1.0) / 2;
    /** The roundings a value of the downdate carries (a few operations each), in units of u. */
    private static final double ROUNDINGS = 8;

    private Retraction() {
    }

    /** Retracts (x, w) from {@code g} (x and w already checked); null when done, else why not. */
    static String apply(RunningGaussian g, double[] x, double w) {
        int d = g.d;
        double[] delta = g.delta;
        double[] centred = g.centred;
        double[] packedScatter = g.packedScatter;
        if (g.n == 0) {
            return "the class count would become negative (it holds no observation)";
        }
        double remaining = g.weight - w;
        double tolerance = RunningGaussian.RETRACTION_TOLERANCE * g.weight;
        if (remaining < -tolerance) {
            return "the retracted weight " + w + " exceeds the class's weight " + g.weight;
        }
        if (g.n == 1) {
            if (Math.abs(remaining) > tolerance) {
                return "the class's last observation has weight " + g.weight + ", not " + w;
            }
            g.clearWeight();
        } else if (w == 0.0) {
            // nothing but the count changes
        } else if (g.referenceTime != RunningGaussian.NO_REFERENCE_TIME
                && w < RunningGaussian.RETRACTION_TOLERANCE * g.weight) {
            // Under forgetting, an event decayed below 1e-9 of the class's weight (some 30 half-lives older than
            // what dominates it) is forgotten in all but name: when a heavy event came, West's update rounded away
            // its share of the mean and scatter, so taking that share back would take back what is not there (the
            // scatter came out −4e-16 for an event of 55 half-lives, refused as a loss of semi-definiteness). Its
            // weight leaves W and V; the mean and scatter, to within 1e-9 of its pull, are the others'.
            g.weight = remaining;
            g.squaredWeights = withinKishBounds(g.squaredWeights - w * w, remaining, g.n - 1);
        } else if (remaining <= tolerance) {
            if (remaining > rounding(g) && g.referenceTime == RunningGaussian.NO_REFERENCE_TIME) {
                return "it would leave the class's " + (g.n - 1) + " other observations a weight of " + remaining
                        + ", " + remaining / g.weight + " of its " + g.weight + ": the downdate would multiply"
                        + " rounding errors by " + (float) (g.weight / remaining) + ", so their mean and scatter"
                        + " could not be trusted";
            }
            // What remains has weight zero up to rounding (weight-0 observations): no mean, no scatter.
            g.clearWeight();
        } else {
            double remainingSquares = g.squaredWeights - w * w;
            if (remainingSquares < RunningGaussian.RETRACTION_TOLERANCE * g.squaredWeights
                    && g.referenceTime == RunningGaussian.NO_REFERENCE_TIME) {
                return "it would leave the class's " + (g.n - 1) + " other observations a sum of squared weights of "
                        + Math.max(remainingSquares, 0.0) + " of its " + g.squaredWeights + ": the downdate would"
                        + " multiply rounding errors by more than 1e9 (the weights' squares span more orders of"
                        + " magnitude than a double holds), so their effective sample size could not be trusted";
            }
            for (int i = 0; i < d; i++) {
                delta[i] = (x[i] - g.pivot[i]) - g.relativeMean[i];
                // μ' = μ − (w/W')δ, and x − μ' = δ·W/W' (kept as centred)
                centred[i] = delta[i] * g.weight / remaining;
            }
            String problem = problem(g, w);
            if (problem != null) {
                return problem;
            }
            if (g.diagonal) {
                for (int i = 0; i < d; i++) {
                    packedScatter[i] -= w * centred[i] * delta[i];
                    if (packedScatter[i] < 0) {
                        packedScatter[i] = 0.0; // rounding, within the tolerance checked above
                    }
                }
            }
            int p = 0;
            for (int i = 0; i < (g.diagonal ? 0 : d); i++) {
                double ci = w * centred[i];
                for (int j = i; j < d; j++) {
                    packedScatter[p] -= ci * delta[j];
                    if (j == i && packedScatter[p] < 0) {
                        packedScatter[p] = 0.0; // rounding, within the tolerance checked above
                    }
                    p++;
                }
            }
            for (int i = 0; i < d; i++) {
                g.relativeMean[i] -= delta[i] * w / remaining;
            }
            g.weight = remaining;
            g.squaredWeights = withinKishBounds(remainingSquares, remaining, g.n - 1);
        }
        g.n--;
        g.retractions++;
        g.weighted = true;
        if (g.n == 0) {
            g.clearWeight();
        }
        return null;
    }

    /**
     * V' = V − w², kept within what n' non-negative weights summing to W' allow: W'²/n' ≤ V' ≤ W'² (Cauchy–Schwarz),
     * i.e. an effective sample size between 1 and n'. Exact arithmetic stays inside; a V' that cancelled below (under
     * forgetting, where the refusal above does not apply, the decayed w² can differ from what V holds by its
     * rounding) would otherwise give an effective sample size above n', or 0.
     */
    private static double withinKishBounds(double squares, double weight, long n) {
        return Math.min(Math.max(squares, weight * weight / n), weight * weight);
    }

    /**
     * A bound on the rounding error of W: each update and retraction of the class rounds it by at most one ulp of
     * its size. Below it, W − w is zero (weight-0 observations are left: cleared). Above it and below
     * {@link RunningGaussian#RETRACTION_TOLERANCE} of W, the remaining observations are real but so light against
     * the retracted one that the downdate would amplify rounding by W/W' (≥ 1e9): refused, rather than cleared along
     * with the retracted one (their weight would vanish without a word). Not under forgetting, where what remains
     * that light is events decayed beyond 30 half-lives, forgotten in all but name: cleared, as before. The bound
     * knows W's current size only, not its past: after retracting an observation 1e5 times heavier than what is
     * left, a last retraction that should leave only weight-0 observations can be refused (with this reason).
     */
    private static double rounding(RunningGaussian g) {
        return (2.0 * g.n + g.retractions + 8) * Math.ulp(g.weight);
    }

    /**
     * Whether S'_ii = S_ii − removed_i is mostly rounding: S_ii holds its rounding errors at the scale of
     * S_ii + removed_i (of what the retracted observation added when it came), and a difference far below that scale
     * keeps only those errors. An observation far from the class's others (a glitch of 1e9 among values near 1)
     * made S_ii so large that the others' own scatter was rounded away when it came, and taking it back cannot
     * bring that scatter back: S'_ii came out 0 instead of 0.0988, and the class's variance fell to the floor.
     * Refused when the downdate would multiply the rounding errors by more than 1/{@code RETRACTION_TOLERANCE},
     * measured against what the coordinate keeps: its scatter S'_ii and W'·μ'_i² (a variance that is tiny beside
     * the coordinate's magnitude is floored in any fit, and its values carry the same relative rounding). A
     * coordinate whose scatter and mean both come out zero within their rounding (a flag seen once, then retracted)
     * keeps nothing to lose, and is accepted: the one case this cannot tell from a lost scatter is a class whose
     * mean is zero and whose spread is below 1e-16 of the retracted observation's distance from it.
     */
    private static String cancellation(RunningGaussian g, double w, int i, double keptScatter, double scale) {
        double remaining = g.weight - w;
        double shift = g.delta[i] * w / remaining;
        double mean = g.pivot[i] + (g.relativeMean[i] - shift);
        double meanRounding = ROUNDINGS * UNIT_ROUNDOFF * (Math.abs(g.pivot[i]) + Math.abs(g.relativeMean[i])
                + Math.abs(shift));
        if (keptScatter <= ROUNDINGS * UNIT_ROUNDOFF * scale && Math.abs(mean) <= meanRounding) {
            return null;
        }
        double kept = keptScatter + remaining * mean * mean;
        if (scale > kept / RunningGaussian.RETRACTION_TOLERANCE) {
            return "the observation is so far from the class's others in coordinate " + i + " that the downdate"
                    + " would multiply rounding errors by " + (float) (scale / kept) + ", more than 1e9: their"
                    + " scatter was rounded away when it came and cannot be recovered (train the class again"
                    + " without it)";
        }
        return null;
    }

    /** The diagonal and 2×2-minor checks, on delta/centred, before anything changes; null when they pass. */
    private static String problem(RunningGaussian g, double w) {
        int d = g.d;
        double[] delta = g.delta;
        double[] centred = g.centred;
        double[] packedScatter = g.packedScatter;
        int p = 0;
        double[] diagonal = new double[d];
        double[] scale = new double[d];
        for (int i = 0; i < d; i++) {
            double removed = w * centred[i] * delta[i];
            diagonal[i] = packedScatter[p] - removed;
            scale[i] = packedScatter[p] + Math.abs(removed);
            if (diagonal[i] < -RunningGaussian.RETRACTION_TOLERANCE * scale[i]) {
                return "the scatter would lose positive semi-definiteness (variance of coordinate " + i
                        + " would be " + diagonal[i] / g.weight + ")";
            }
            String lost = cancellation(g, w, i, Math.max(diagonal[i], 0.0), scale[i]);
            if (lost != null) {
                return lost;
            }
            p += g.diagonal ? 1 : d - i;
        }
        if (g.diagonal) {
            return null; // no off-diagonal entries, no minors
        }
        p = 0;
        for (int i = 0; i < d; i++) {
            p++; // the diagonal
            for (int j = i + 1; j < d; j++) {
                double sij = packedScatter[p++] - w * centred[i] * delta[j];
                double minor = Math.max(diagonal[i], 0) * Math.max(diagonal[j], 0) - sij * sij;
                if (minor < -RunningGaussian.RETRACTION_TOLERANCE * scale[i] * scale[j]) {
                    return "the scatter would lose positive semi-definiteness (coordinates " + i + " and " + j
                            + ")";
                }
            }
        }
        return null;
    }
}
