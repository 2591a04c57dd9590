package io.gdastreams.model;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A record of the metrics topic ({@code gda.topic.metrics}, key = model id), written by the trainer's prequential
 * evaluation (docs/TRAINING.md, "Prequential evaluation", "Drift detection"): a closed window of one input
 * partition, or a drift alarm; on the wire they are told apart by {@code "type"}. The reference of every field is
 * docs/schemas/model-metrics.schema.json. The JSON mapping is the serde package's ({@code serde.MetricsJson}), the
 * one place the trainer writes it and every reader reads it, so that they cannot drift apart.
 */
public sealed interface MetricsRecord permits MetricsRecord.Window, MetricsRecord.DriftAlarm {

    /** The model evaluated (null in a file that names none, e.g. the oracle windows of docs/drift). */
    String modelId();

    /** The input partition whose task wrote the record. */
    int partition();

    /**
     * A closed prequential window [windowStart, windowEnd) of event time in one partition: {@code count} events
     * scored. The means ({@code accuracy}, {@code logLoss}, {@code brier}) and {@code modelVersions} are null when
     * none was scored (a mean of nothing is no number); events not in them are counted in {@code noModel},
     * {@code unscorable} and {@code late}. {@code recall} and {@code support} are per true label, in label order.
     */
    record Window(String modelId, int partition, long windowStart, long windowEnd, long count, Double accuracy,
                  Double logLoss, Double brier, SortedMap<String, Double> recall, SortedMap<String, Long> support,
                  Versions modelVersions, long noModel, long unscorable, long late) implements MetricsRecord {

        public Window {
            if (count < 0) {
                throw new IllegalArgumentException("negative count " + count);
            }
            // A scored window without its accuracy would be read as all misses by whoever combines windows.
            if (count > 0 && accuracy == null) {
                throw new IllegalArgumentException("a window of " + count + " scored events without its accuracy");
            }
            recall = Collections.unmodifiableSortedMap(new TreeMap<>(recall));
            support = Collections.unmodifiableSortedMap(new TreeMap<>(support));
        }

        /**
         * The scored events whose decision was right (accuracy × count; 0 when none was scored): what the windows
         * of several partitions add up to, as their accuracy is the count-weighted mean of theirs.
         */
        public double hits() {
            return count == 0 ? 0 : accuracy * count;
        }
    }

    /** The lowest and highest version of the model that scored the events of a window. */
    record Versions(long lowest, long highest) {
    }

    /**
     * A Page–Hinkley alarm of one partition at the event of time {@code eventTime}: the test's {@code statistic}
     * rose above {@code threshold} (λ, with tolerance δ {@code delta}). {@code resetGeneration}: the reset
     * generation it started ({@code gda.drift.action=reset}), or 0 when it only alerts (generations start at 1).
     */
    record DriftAlarm(String modelId, int partition, long eventTime, String detector, double statistic,
                      double threshold, double delta, long resetGeneration) implements MetricsRecord {

        public DriftAlarm {
            if (resetGeneration < 0) {
                throw new IllegalArgumentException("negative reset generation " + resetGeneration);
            }
        }

        /** Whether the alarm started a reset generation (else it only alerts). */
        public boolean resets() {
            return resetGeneration > 0;
        }
    }
}
