package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.config.Role;
import io.gdastreams.model.DeadLetter;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class DeletedInputTest {

    @Test
    void shouldSayWhatIsLostForEachRoleAndTopic() {
        assertEquals("offsets 7 to 7 of unlabelled-events-1 (1 offset: records, and any transaction markers or aborted"
                + " records among them) were deleted by the broker (retention, or a deletion of records) before the"
                + " scoring application read them; at most 1 event is not in the predictions. Keep the input's"
                + " retention.ms above the longest stop or lag you allow",
                new DeletedInput(new TopicPartition("unlabelled-events", 1), 7, 8).sentence(Role.SCORING, true));
        assertEquals("offsets 18 to 25 of the internal topic partition (partial snapshots) app-training-class-stats"
                + "-partials-repartition-0 (8 offsets: records, and any transaction markers or aborted records among"
                + " them) were deleted by the broker (retention, or a deletion of records) before the training"
                + " application read them; the model lacks the events they summed up until each input partition they"
                + " came from sends its next snapshot (at its next event); restarting every training instance re-sends"
                + " them now", new DeletedInput(new TopicPartition("app-training-class-stats-partials-repartition", 0),
                18, 26).sentence(Role.TRAINING, false));
    }

    @Test
    void shouldKeepTheGapsStartAsTheLettersCoordinatesAndKey() {
        DeletedInput gap = new DeletedInput(new TopicPartition("labelled-events", 0), 40, 70);
        assertEquals(30, gap.offsets());
        DeadLetter letter = gap.letter(Role.TRAINING, true);
        assertEquals("labelled-events", letter.topic());
        assertEquals(0, letter.partition());
        assertEquals(40, letter.offset());
        assertEquals("deleted before it was read: " + gap.sentence(Role.TRAINING, true), letter.reason());
        assertTrue(letter.reason().contains("; at most 30 events are not in the model."), letter.reason());
        assertNull(letter.keyBase64());
        assertNull(letter.valueBase64());
        assertEquals("labelled-events-0@40", gap.key());
    }
}
