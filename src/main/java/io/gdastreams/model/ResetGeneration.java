package io.gdastreams.model;

/**
 * Which regime a partition's statistics belong to ({@code gda.drift.action=reset}; docs/TRAINING.md, "Drift
 * detection"). Generation 0 is the statistics since the training started; each reset starts the next generation
 * with empty statistics. The combiner merges only the partitions of the newest generation, so the statistics of an
 * older regime never mix with those of a newer one.
 *
 * @param number  the generation, ≥ 0
 * @param dropped the applied events this partition's earlier generations absorbed and the reset dropped, ≥ 0: the
 *                progress still counts them, so the check of a state or snapshot is applied = dropped + Σ (count +
 *                2·retractions) over the classes of this generation
 */
public record ResetGeneration(long number, long dropped) {

    /** The statistics since the start: no reset yet. */
    public static final ResetGeneration NONE = new ResetGeneration(0, 0);

    public ResetGeneration {
        if (number < 0 || dropped < 0) {
            throw new IllegalArgumentException("negative reset generation " + number + " or dropped count " + dropped);
        }
    }

    /** Generation {@code next} (above this one), dropping the {@code applied} events counted so far. */
    public ResetGeneration next(long next, long applied) {
        if (next <= number) {
            throw new IllegalArgumentException("generation " + next + " is not after " + number);
        }
        return new ResetGeneration(next, applied);
    }
}
