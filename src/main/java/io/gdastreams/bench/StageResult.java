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
 */
record StageResult(String stage, long events, double seconds, double startupSeconds, Percentiles latency) {

    double eventsPerSecond() {
        return events / seconds;
    }
}
