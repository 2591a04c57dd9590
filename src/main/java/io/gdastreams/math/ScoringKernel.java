package io.gdastreams.math;

/**
 * How a {@link Discriminant} computes a score when every coordinate is observed ({@code gda.scoring.kernel}).
 *
 * <ul>
 *   <li>{@link #EXACT} (the default): the reference order of operations. Every multiply and add rounded on its own,
 *   one class's sum in one chain, {@link Math#exp} per class and a division per probability; the vector and scalar
 *   kernels give the same bits, so a score does not depend on the JVM or the CPU, and the golden files pin it.</li>
 *   <li>{@link #FAST}: the same formulas with the last bits left free, for the vector path only
 *   ({@code VectorFastKernels}): fused multiply-adds, four partial sums per chain (one sum of d terms becomes four
 *   of d/4, so a score waits on shorter addition chains), the Vector API's exponential over four classes at once
 *   and one reciprocal instead of K divisions. Each output differs from EXACT's by a few units in the last place of
 *   the terms it is made of (a forward error of the same order, d·u·cond, as EXACT's own; the tolerance tests state
 *   the bound they check). Falls back to EXACT, per score, where it would not be faster or not be defined the same
 *   way: without the vector module, for a point with a missing coordinate, and when a log-joint is not finite.</li>
 * </ul>
 * Explanations ({@link Discriminant#explain}) and imputation always use EXACT.
 */
public enum ScoringKernel {
    EXACT,
    FAST
}
