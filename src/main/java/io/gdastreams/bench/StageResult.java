package io.gdastreams.bench;

/**
 * What one stage of a benchmark run measured.
 *
 * @param stage          passthrough, training or scoring
 * @param events         events pre-loaded and fully processed
 * @param seconds        from the application reaching RUNNING to the broker append time of the last output
 *                       (passthrough, scoring) or of the first model that absorbed every event (training)
 * @param startupSeconds from {@code KafkaStreams.start()} to RUNNING (not part of {@code seconds})
 * @param latency        per event, milliseconds: input append → output append (passthrough, scoring) or
 *                       input append → append of the first model version whose lineage includes it (training)
 * @param visible        the same to when the bench's {@code read_committed} consumer read that output or model
 *                       (under exactly-once, after its transaction committed); {@link Percentiles#EMPTY} when not
 *                       measured
 * @param appCpuSeconds  CPU time of the application's threads (in the bench's JVM) from RUNNING until every event
 *                       was processed (scoring, passthrough: the input offsets committed; training: the model that
 *                       absorbed every event), before the latency events; for scoring and passthrough scaled by
 *                       N / (outputs written after RUNNING), the events that CPU paid for; NaN when not measured
 *                       (child instances, or more than {@link StageRunner#MAX_SHARE_BEFORE_RUNNING} of the outputs
 *                       written before RUNNING)
 * @param versionsPerInterval training: model versions per publish interval while the paced events were absorbed
 *                       ({@link PacedMeasurement.Delays#versionsPerInterval}); NaN otherwise
 * @param jitSeconds     seconds the bench's JVM spent compiling over the same span as {@code appCpuSeconds}
 *                       (unscaled; {@link AppUnderTest#jitSeconds()}): how much of a core the JIT took from the
 *                       measurement; NaN when not measured
 * @param storedBytes    bytes the brokers held in the stage's topics other than its input once every event was
 *                       processed, before the latency events ({@link BenchClients#storedBytes}): what the
 *                       application made the brokers write (outputs, changelogs, models); NaN when not measured
 */
record StageResult(String stage, long events, double seconds, double startupSeconds, Percentiles latency,
                   Percentiles visible, double appCpuSeconds, double versionsPerInterval, double jitSeconds,
                   double storedBytes) {

    StageResult(String stage, long events, double seconds, double startupSeconds, Percentiles latency) {
        this(stage, events, seconds, startupSeconds, latency, Percentiles.EMPTY, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN);
    }

    StageResult(String stage, long events, double seconds, double startupSeconds, PacedMeasurement.Delays delays,
                double appCpuSeconds, double jitSeconds, double storedBytes) {
        this(stage, events, seconds, startupSeconds, delays.appended(), delays.visible(), appCpuSeconds,
                delays.versionsPerInterval(), jitSeconds, storedBytes);
    }

    /**
     * µs of application CPU per event (NaN when not measured): unlike events/s, hardly moved by what other
     * processes do on a shared machine (a thread waiting for a core accrues no CPU time).
     */
    double appCpuMicrosPerEvent() {
        return appCpuSeconds * 1e6 / events;
    }

    /** Bytes the brokers wrote for the stage per event (NaN when not measured): see {@code storedBytes}. */
    double storedBytesPerEvent() {
        return storedBytes / events;
    }

    double eventsPerSecond() {
        return events / seconds;
    }
}
