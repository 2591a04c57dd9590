package io.gdastreams.topology;

import io.gdastreams.math.PageHinkley;
import io.gdastreams.model.MetricsRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Test-then-train evaluation of one input partition's task ({@code gda.prequential}; docs/TRAINING.md,
 * "Prequential evaluation"). Each labelled event the task is about to apply is first scored with the latest
 * published model ({@link PrequentialModel}) and its outcome added to the partition's open tumbling event-time
 * window; an event at or after the window's end closes it, and the closed window's record is returned for the
 * metrics topic.
 *
 * <p>Per event, with true label y and posterior p over the model's classes: hit = (the scorer's decision rule
 * chooses y); log-loss = −ln max(p_y, {@value #MIN_PROBABILITY}) (p_y = 0 when the model has no class y); Brier
 * score = Σ_k (p_k − [k = y])² (Brier 1950, the multi-class form, in [0, 2]; + 1 when the model has no class y).
 *
 * <p>The open window and the drift state are stored after the partition's counters, in the {@code progress} entry
 * of the {@code class-stats} store ({@link ProgressCounters}, format 2; layout {@link PrequentialStateBytes}): this
 * evaluator is that entry's tail ({@link PartitionState#attachTail}), written with the counters after every record,
 * so under exactly-once it commits with the input offset and the emitted records, and a restart neither loses nor
 * double counts an event, at no store write of its own. A state an earlier release kept in the store
 * {@link TrainingTopology#PREQUENTIAL_STORE} is read when the progress holds none, and removed from there at the
 * first progress write. Windows are per partition: the record
 * names its partition, and a reader combines the records of one window over the partitions (sums weighted by
 * count).
 *
 * <p>Drift: the log-loss of every scored event goes to a Page–Hinkley test ({@link PageHinkley}, δ and λ of the
 * settings); when it fires, a drift record names the timestamp of the event it fired at. The test's state (four
 * numbers) is stored with the window, so it too survives a restart exactly. With {@code gda.drift.action=reset}
 * the alarm also asks the task to start reset generation g + 1 ({@link Observation#reset()}); while the model in
 * force is of an older generation than the task's (the reset model is not published yet), the test is paused: that
 * model's loss is known to be high, and an alarm on it would only reset again. The test is also paused while the
 * model in force has not warmed up ({@link DriftWarmUp}: too few events, or a class below gda.min.count): the
 * losses of such a model rise and fall as its estimates settle, which is no drift. A paused test keeps its state;
 * the event still counts in the window.
 */
final class PrequentialEvaluator implements ProgressCounters.Tail {

    /** Floor of the probability of the true label in the log-loss: a certain mistake costs ln 10^15 ≈ 34.5. */
    static final double MIN_PROBABILITY = 1e-15;

    private static final Observation NOTHING = new Observation(List.of(), false);

    private final String modelId;
    /** The model id as the stored state names it ({@link PrequentialStateBytes#storedModelId}). */
    private final byte[] storedModelId;
    private final long width;
    private final int partition;
    /**
     * The store of earlier releases, or null; {@link #legacyKeys}: the keys of it to remove at the first progress
     * write.
     */
    private final KeyValueStore<String, byte[]> legacyStore;
    private final List<String> legacyKeys = new ArrayList<>(2);
    /** Null when the settings ask for no drift test. */
    private final PageHinkley detector;
    /** With no drift test: the stored drift state, kept as it was so that turning the test back on resumes it. */
    private final double[] dormantDrift;
    private final boolean reset;
    private PrequentialWindow open;

    /**
     * The evaluator of model {@code modelId} in partition {@code partition}, from {@code stored} (the progress
     * entry's tail, {@link PartitionState#loadedTail}; null: none) or, when that holds no state of this model, from
     * {@code legacyStore} (the store earlier releases kept it in; may be null).
     */
    PrequentialEvaluator(String modelId, PrequentialSettings settings, int partition, byte[] stored,
                         KeyValueStore<String, byte[]> legacyStore) {
        this.modelId = modelId;
        this.storedModelId = PrequentialStateBytes.storedModelId(modelId);
        this.width = settings.window().toMillis();
        this.partition = partition;
        this.legacyStore = legacyStore;
        this.detector = settings.detectsDrift() ? new PageHinkley(settings.driftDelta(), settings.driftLambda(),
                PrequentialSettings.DRIFT_MIN_INSTANCES) : null;
        this.reset = settings.driftReset();
        PrequentialStateBytes.Decoded decoded = stored == null ? null : PrequentialStateBytes.decode(stored);
        if (decoded != null && !modelId.equals(decoded.modelId())) {
            decoded = null; // another model's state: as before, a model id starts its own
        }
        if (decoded == null && legacyStore != null) {
            decoded = fromLegacyStore();
        }
        double[] drift = null;
        if (decoded != null) {
            open = decoded.window();
            drift = decoded.drift();
        }
        if (detector != null && drift != null) {
            detector.restore(drift);
        }
        this.dormantDrift = detector == null ? drift : null;
    }

    /** The state of this model in the store of earlier releases (layouts 1 and 2), or null. */
    private PrequentialStateBytes.Decoded fromLegacyStore() {
        String windowKey = "window:" + modelId;
        byte[] saved = legacyStore.get(windowKey);
        if (saved == null) {
            return null;
        }
        legacyKeys.add(windowKey);
        PrequentialStateBytes.Decoded decoded = PrequentialStateBytes.decode(saved);
        if (decoded.windowOnly()) { // layout 1: the drift state is a value of its own
            String driftKey = "page-hinkley:" + modelId;
            byte[] old = legacyStore.get(driftKey);
            legacyKeys.add(driftKey);
            decoded = new PrequentialStateBytes.Decoded(modelId, decoded.window(),
                    old == null ? null : PrequentialStateBytes.decodeDrift(old), false);
        }
        return decoded;
    }

    /** The outcome of one event scored with a model. */
    record Outcome(boolean hit, double logLoss, double brier) {
    }

    /** The outcome of an event of true label {@code label} with posterior {@code p} over {@code model}'s labels. */
    static Outcome outcome(CompiledModel model, double[] p, String label) {
        List<String> labels = model.labels();
        int truth = labels.indexOf(label);
        boolean hit = truth >= 0 && model.decide(p) == truth;
        double brier = truth >= 0 ? 0 : 1;
        for (int k = 0; k < p.length; k++) {
            double e = p[k] - (k == truth ? 1 : 0);
            brier += e * e;
        }
        double pTruth = truth >= 0 ? p[truth] : 0;
        return new Outcome(hit, -Math.log(Math.max(pTruth, MIN_PROBABILITY)), brier);
    }

    /**
     * What observing one event gave: the records for the metrics topic (JSON, in order: the window it closed, a
     * drift alarm; usually none), and whether the alarm asks for a reset.
     */
    record Observation(List<MetricsRecord> records, boolean reset) {
    }

    /** How the event being observed is scored: its posterior under a model, in the order of its labels. */
    @FunctionalInterface
    interface Scorer {
        /**
         * The posterior of the event over {@code model.labels()}, or null when {@code model} cannot score it. The
         * evaluator reads the array only within the call that asked for it, so a scorer may reuse one buffer.
         */
        double[] posterior(CompiledModel model);
    }

    /**
     * Observes an event of true label {@code label} (event time {@code timestamp}) before it is applied by a task
     * whose statistics are of generation {@code ownGeneration}: scored by {@code scorer} with {@code model} (null:
     * none published yet; of reset generation {@code modelGeneration}; {@code modelWarmedUp}: whether it is mature
     * enough to feed the drift test, {@link DriftWarmUp}). The scorer is asked only when the event falls in the open
     * window and there is a model.
     */
    Observation observe(String label, long timestamp, CompiledModel model, Scorer scorer, long modelGeneration,
                        long ownGeneration, boolean modelWarmedUp) {
        boolean resetNow = false;
        List<MetricsRecord> records = List.of();
        long start = Math.floorDiv(timestamp, width) * width;
        if (open == null) {
            open = new PrequentialWindow(start);
        } else if (start > open.start) {
            if (!open.isEmpty()) {
                records = new ArrayList<>(2);
                records.add(open.toRecord(modelId, partition, width));
            }
            open = new PrequentialWindow(start);
        }
        if (start < open.start) {
            open.late++;
        } else if (model == null) {
            open.noModel++;
        } else {
            double[] p = scorer.posterior(model);
            if (p == null) {
                open.unscorable++;
            } else {
                Outcome outcome = outcome(model, p, label);
                open.add(label, outcome.hit(), outcome.logLoss(), outcome.brier(), model.version());
                boolean paused = !modelWarmedUp || (reset && modelGeneration < ownGeneration);
                if (detector != null && !paused && detector.update(outcome.logLoss())) {
                    records = records.isEmpty() ? new ArrayList<>(1) : records;
                    resetNow = reset;
                    records.add(driftRecord(timestamp, resetNow ? ownGeneration + 1 : -1));
                }
            }
        }
        return records.isEmpty() && !resetNow ? NOTHING : new Observation(records, resetNow);
    }

    /**
     * Removes the state of an earlier release from its store, as it is written to the progress entry: the two
     * writes are of one record's transaction, so the state moves and is never in neither place (nor read from the
     * old store again, whatever the record was: applied or dead-lettered).
     */
    private void forgetLegacyStore() {
        if (!legacyKeys.isEmpty()) {
            for (String key : legacyKeys) {
                legacyStore.delete(key);
            }
            legacyKeys.clear();
        }
    }

    /**
     * Restarts the drift test: the task took up a newer reset generation from the published model, whose loss is
     * not the one the test was following.
     */
    void restartDetector() {
        if (detector != null) {
            detector.reset();
        }
    }

    /** The stored size of the state (0 before the first event: nothing to store). */
    @Override
    public int storedSize() {
        return open == null ? 0 : PrequentialStateBytes.size(storedModelId, open, drift());
    }

    /** Writes the state into the progress entry ({@link PartitionState#setProgress}), moving it from the old store. */
    @Override
    public int writeTo(byte[] out, int at) {
        forgetLegacyStore();
        return open == null ? at : PrequentialStateBytes.write(out, at, storedModelId, open, drift());
    }

    /** The state as stored ({@link PrequentialStateBytes}), or null before the first event; writes nothing. */
    byte[] stateBytes() {
        if (open == null) {
            return null;
        }
        byte[] out = new byte[storedSize()];
        PrequentialStateBytes.write(out, 0, storedModelId, open, drift());
        return out;
    }

    private double[] drift() {
        return detector != null ? detector.state() : dormantDrift;
    }

    /** {@code generation}: the reset generation the alarm starts, or −1 when it only alerts (0 in the record). */
    private MetricsRecord driftRecord(long eventTime, long generation) {
        return new MetricsRecord.DriftAlarm(modelId, partition, eventTime, "page-hinkley",
                detector.alarmStatistic(), detector.lambda(), detector.delta(), Math.max(generation, 0));
    }
}
