package io.gdastreams.topology;

import io.gdastreams.math.RunningGaussian;
import io.gdastreams.math.Statistics;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.serde.SerdeFactory;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * What becomes of a partial snapshot record the combiner receives (docs/TRAINING.md, "Snapshots, versions,
 * lineage"): refused when unreadable, of another model or of another schema than the one in force; ignored when
 * not newer (larger next offset) than the kept snapshot of its partition, so replaying snapshots never changes the
 * model; accepted otherwise. Decides only: the combiner keeps, dead-letters and logs.
 */
final class SnapshotIntake {

    /** The decision on one record. */
    sealed interface Outcome permits Refused, Stale, Accepted {

        /**
         * The snapshot of this model that shows how its partition is trained now (by whom: {@link
         * SettingsAgreement}), or null: an unreadable record, another model's, or a replay of an older snapshot.
         */
        PartialSnapshot current();
    }

    /**
     * To be dead-lettered with {@code reason}; {@code conflict}: a readable snapshot that contradicts the model
     * (worth a warning), not a damaged record; {@code otherModel}: the model id of a snapshot of another model, else
     * null; {@code snapshot}: the refused snapshot when it tells who trains its partition now (readable, and not
     * older than the partition's kept snapshot), else null.
     */
    record Refused(String reason, boolean conflict, String otherModel, PartialSnapshot snapshot) implements Outcome {

        Refused(String reason, boolean conflict) {
            this(reason, conflict, null, null);
        }

        @Override
        public PartialSnapshot current() {
            return otherModel == null ? snapshot : null;
        }
    }

    /** Not newer than the snapshot kept of its partition (which is up to {@code keptOffset}): changes nothing. */
    record Stale(PartialSnapshot snapshot, long keptOffset) implements Outcome {

        /**
         * Up to the kept offset exactly: the kept snapshot sent again, the task's word that it had nothing new at
         * this tick (PartialStatsProcessor) or its first snapshot after a restart; an older one is a replay.
         */
        boolean resent() {
            return snapshot.progress().nextOffset() == keptOffset;
        }

        int partition() {
            return snapshot.progress().partition();
        }

        @Override
        public PartialSnapshot current() {
            return resent() ? snapshot : null;
        }
    }

    /** To be kept in place of its partition's snapshot. */
    record Accepted(PartialSnapshot snapshot) implements Outcome {

        @Override
        public PartialSnapshot current() {
            return snapshot;
        }
    }

    private final String modelId;
    /** The categorical features every snapshot with events must count ({@code gda.categorical.features}). */
    private final List<String> categorical;
    /** What this trainer keeps per class ({@code gda.statistics}). */
    private final Statistics statistics;
    private final Deserializer<PartialSnapshot> deserializer = SerdeFactory.partialSnapshot().deserializer();

    /** @param modelId the model the combiner builds */
    SnapshotIntake(String modelId) {
        this(modelId, List.of(), Statistics.FULL);
    }

    /**
     * @param categorical the categorical features of the model, in order (empty: none)
     * @param statistics  this trainer's {@code gda.statistics}
     */
    SnapshotIntake(String modelId, List<String> categorical, Statistics statistics) {
        this.modelId = modelId;
        this.categorical = List.copyOf(categorical);
        this.statistics = statistics;
    }

    /** The decision on record {@code value} from {@code topic}, given what the combiner keeps. */
    Outcome judge(String topic, byte[] value, CombinerState state) {
        PartialSnapshot partial;
        try {
            partial = deserializer.deserialize(topic, value);
        } catch (RuntimeException e) {
            return new Refused("unreadable partial snapshot: " + e.getMessage(), false);
        }
        if (partial == null) {
            return new Refused("null partial snapshot", false);
        }
        long keptOffset = state.kept(partial.progress().partition()).map(k -> k.progress().nextOffset()).orElse(-1L);
        String conflict = conflict(partial, state);
        if (conflict != null) {
            // A refused snapshot tells who trains its partition (a misconfigured instance's, refused for another
            // schema, often has no kept snapshot before it), but not a replay of one older than the kept snapshot.
            return new Refused(conflict, true, modelId.equals(partial.modelId()) ? null : partial.modelId(),
                    partial.progress().nextOffset() >= keptOffset ? partial : null);
        }
        if (keptOffset >= partial.progress().nextOffset()) {
            return new Stale(partial, keptOffset);
        }
        String regression = state.kept(partial.progress().partition()).map(kept -> regression(partial, kept))
                .orElse(null);
        return regression != null ? new Refused(regression, true) : new Accepted(partial);
    }

    /**
     * Why {@code newer} (of a larger next offset) cannot follow {@code kept} in its partition, or null. A task's
     * applied events (its classes' counts, twice their retractions and what its resets dropped: the decoder holds
     * them equal) only grow with its offset, replays under at-least-once included (the events re-read are applied
     * again); a snapshot that holds less was written by no trainer task (by hand, or forged on the internal topic).
     * Kept, it made the model go back below the published one, and the trainer stopped at every start to keep the
     * published model from going backwards, since the combiner's store held it again. (Its reset generation is not
     * judged here: under at-least-once a task restored to before its drift alarm may replay without it.)
     */
    static String regression(PartialSnapshot newer, PartialSnapshot kept) {
        int partition = newer.progress().partition();
        if (newer.progress().applied() < kept.progress().applied()) {
            return "partial snapshot of partition " + partition + " up to offset " + newer.progress().nextOffset()
                    + " has applied " + newer.progress().applied() + " events, fewer than the "
                    + kept.progress().applied() + " of the kept one up to offset " + kept.progress().nextOffset()
                    + ": a trainer task's applied events never shrink";
        }
        return null;
    }

    /** Why {@code partial} cannot be merged into this model, or null. */
    private String conflict(PartialSnapshot partial, CombinerState state) {
        int partition = partial.progress().partition();
        if (!modelId.equals(partial.modelId())) {
            return "partial snapshot of partition " + partition + " is for model '" + partial.modelId()
                    + "', this combiner builds model '" + modelId + "'";
        }
        List<String> features = partial.progress().features();
        if (!state.fitsSchema(features)) {
            return "schema conflict: partition " + partition + " has features " + features + " but model '"
                    + modelId + "' has " + state.schema() + "; its " + partial.progress().applied()
                    + " events up to offset " + partial.progress().nextOffset() + " are left out of the model";
        }
        // A full trainer never keeps diagonal statistics (it refuses such state): an instance configured with
        // gda.statistics=diagonal made them, and pooled in they would take the model's covariances away.
        if (statistics == Statistics.FULL
                && partial.classes().values().stream().anyMatch(RunningGaussian::isDiagonal)) {
            return "statistics conflict: partition " + partition + " keeps diagonal statistics (an instance with"
                    + " gda.statistics=diagonal) but this trainer has gda.statistics=full; instances of one"
                    + " application must share one configuration (docs/RELIABILITY.md); its "
                    + partial.progress().applied()
                    + " events up to offset " + partial.progress().nextOffset() + " are left out of the model";
        }
        // Counts of other categorical features (or none) cannot be merged: the trainers disagree on the schema.
        for (var entry : partial.categories().entrySet()) {
            if (!entry.getValue().features().equals(categorical)) {
                return categoricalConflict(partial, entry.getValue().features());
            }
        }
        if (!categorical.isEmpty() && partial.categories().isEmpty() && !partial.classes().isEmpty()) {
            return categoricalConflict(partial, List.of());
        }
        return null;
    }

    private String categoricalConflict(PartialSnapshot partial, List<String> features) {
        return "categorical schema conflict: partition " + partial.progress().partition() + " counts the categorical"
                + " features " + features + " but model '" + modelId + "' has " + categorical + "; its "
                + partial.progress().applied() + " events up to offset " + partial.progress().nextOffset()
                + " are left out of the model";
    }
}
