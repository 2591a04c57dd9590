package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.model.DeadLetter;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class DeletedUnreadTest {

    private static final TopicPartition P0 = new TopicPartition("labelled-events", 0);
    private static final TopicPartition P1 = new TopicPartition("labelled-events", 1);
    private static final TopicPartition P2 = new TopicPartition("labelled-events", 2);

    @Test
    void shouldFindAGapOnlyWhereTheLogStartsAboveTheCommittedOffset() {
        // P0: log starts above (30 offsets gone); P1: at the committed offset (nothing gone); P2: below (nothing).
        List<DeletedUnread.Gap> gaps = DeletedUnread.between(Map.of(P2, 500L, P1, 70L, P0, 40L),
                Map.of(P0, 70L, P1, 70L, P2, 100L));
        assertEquals(List.of(new DeletedUnread.Gap(P0, 40, 70)), gaps);
        assertEquals(30, gaps.get(0).offsets());
    }

    @Test
    void shouldSayNothingOfAPartitionWhoseLogStartIsUnknown() {
        assertEquals(List.of(), DeletedUnread.between(Map.of(P0, 40L), Map.of()));
    }

    @Test
    void shouldListGapsByPartition() {
        List<DeletedUnread.Gap> gaps = DeletedUnread.between(Map.of(P2, 5L, P0, 1L, P1, 3L),
                Map.of(P0, 2L, P1, 4L, P2, 6L));
        assertEquals(List.of(P0, P1, P2), gaps.stream().map(DeletedUnread.Gap::partition).toList());
    }

    @Test
    void shouldSayWhatIsLostForEachRoleAndKeepTheGapsStartInTheLetter() {
        DeletedUnread.Gap one = new DeletedUnread.Gap(P1, 7, 8);
        assertEquals("offsets 7 to 7 of labelled-events-1 (1 offset: records, and any transaction markers among"
                + " them) were deleted by the broker (retention, or a deletion of records) before the scoring"
                + " application read them; they got no prediction. Keep the input's retention.ms above the longest"
                + " stop or lag you allow", one.sentence("scoring"));
        DeadLetter letter = new DeletedUnread.Gap(P0, 40, 70).letter("training");
        assertEquals("labelled-events", letter.topic());
        assertEquals(0, letter.partition());
        assertEquals(40, letter.offset());
        assertEquals("deleted before it was read: offsets 40 to 69 of labelled-events-0 (30 offsets: records, and"
                + " any transaction markers among them) were deleted by the broker (retention, or a deletion of"
                + " records) before the training application read them; they are not in the model. Keep the input's"
                + " retention.ms above the longest stop or lag you allow", letter.reason());
        assertNull(letter.keyBase64());
        assertNull(letter.valueBase64());
    }
}
