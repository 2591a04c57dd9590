package io.gdastreams.service;

import io.gdastreams.config.Role;
import io.gdastreams.model.DeadLetter;
import org.apache.kafka.common.TopicPartition;

/**
 * Offsets {@code from} to {@code to − 1} of {@code partition}, which the broker deleted before the service read them
 * (retention, or a deletion of records): Kafka Streams skipped them when it reset the partition
 * ({@link ResetReportingConsumer}). A bound on the events lost, not their count: transaction markers take offsets
 * too, and what was deleted cannot be looked at.
 */
record DeletedInput(TopicPartition partition, long from, long to) {

    long offsets() {
        return to - from;
    }

    /** What was lost, for the log and the dead letter: of the role's input topic, or of the trainer's partials. */
    String sentence(Role role, boolean input) {
        String lost = !input ? "the model lacks the events they summed up until each input partition they came from"
                + " sends its next snapshot (at its next event); restarting every training instance re-sends them now"
                : "at most " + offsets() + " event" + (offsets() == 1 ? " is" : "s are") + " not in "
                + (role == Role.TRAINING ? "the model" : "the predictions");
        return "offsets " + from + " to " + (to - 1) + " of " + (input ? "" : "the internal topic partition (partial"
                + " snapshots) ") + partition + " (" + offsets() + " offset" + (offsets() == 1 ? "" : "s")
                + ": records, and any transaction markers or aborted records among them) were deleted by the broker"
                + " (retention, or a deletion of records) before the " + role + " application read them; " + lost
                + (input ? ". Keep the input's retention.ms above the longest stop or lag you allow" : "");
    }

    /** The dead letter: where the gap starts, without key or value (the broker has none left to keep). */
    DeadLetter letter(Role role, boolean input) {
        return new DeadLetter("deleted before it was read: " + sentence(role, input), partition.topic(),
                partition.partition(), from, null, null);
    }

    /** The letter's record key, {@code <topic>-<partition>@<from>}: a repeated report of one gap has the same. */
    String key() {
        return partition + "@" + from;
    }
}
