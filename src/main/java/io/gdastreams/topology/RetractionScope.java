package io.gdastreams.topology;

import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.ResetGeneration;
import io.gdastreams.topology.PartitionStateReader.StoredGeneration;

/**
 * Whether a retraction may be applied to the statistics of its partition's reset generation (docs/TRAINING.md,
 * "Reset on drift"). A drift reset drops the statistics of the old regime: a retraction of an event they held must
 * not take an observation out of the new ones, which never held it, and nothing in its features, label, weight or
 * timestamp says which regime its event belonged to. So a retraction may name its event's input offset on the same
 * partition ({@code "retractsOffset"}), and the partition keeps the offset its generation began at
 * ({@link PartitionState#generationStart()}): events before it were dropped, events applied since are held.
 */
final class RetractionScope {

    private RetractionScope() {
    }

    /**
     * Why the retraction read at input offset {@code offset}, naming {@code retractsOffset}
     * ({@link LabelledEvent#NO_OFFSET}: none), cannot be applied to {@code state}'s statistics, or null when it may
     * (they may still refuse it: {@link PartitionState#retract}). Refused, in every generation, when it names an
     * offset not before its own; in a generation above 0 whose start offset is known, when it names an event before
     * that start (dropped by the reset) or names none (whether its event was dropped cannot be told). In generation 0,
     * or a generation begun by an earlier release (start unknown), it is applied as before.
     */
    static String refusal(long retractsOffset, long offset, PartitionState state) {
        if (retractsOffset != LabelledEvent.NO_OFFSET && retractsOffset >= offset) {
            return "retraction: retractsOffset " + retractsOffset + " is not before the retraction's own offset "
                    + offset + " (a retraction can only take back an earlier event of its partition)";
        }
        ResetGeneration generation = state.generation();
        long start = state.generationStart();
        if (generation.number() == 0 || start == StoredGeneration.UNKNOWN_START) {
            return null;
        }
        if (retractsOffset == LabelledEvent.NO_OFFSET) {
            return "retraction without retractsOffset after a drift reset (partition " + state.progress().partition()
                    + " is in generation " + generation.number() + ", which began at offset " + start
                    + "): whether its event was dropped cannot be told; give the original's offset";
        }
        if (retractsOffset < start) {
            return "retraction: its event (offset " + retractsOffset + ") was dropped by the drift reset to generation "
                    + generation.number() + ", which began at offset " + start + " (partition "
                    + state.progress().partition() + ")";
        }
        return null;
    }
}
