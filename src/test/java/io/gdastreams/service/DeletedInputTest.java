package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.topology.DeadLetterCategory;
import io.gdastreams.topology.StreamObserver;
import io.gdastreams.topology.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class DeletedInputTest {

    private static final Topics TOPICS = new Topics("labelled-events", "unlabelled-events", "model-parameters",
            "predictions", "dead-letters");

    @Test
    void shouldSayWhatIsLostForEachRole() {
        assertEquals("offsets 7 to 7 of unlabelled-events-1 (1 offset: records, and any transaction markers among"
                + " them) were deleted by the broker (retention, or a deletion of records) before the scoring"
                + " application read them; they got no prediction. Keep the input's retention.ms above the longest"
                + " stop or lag you allow", new DeletedInput(new TopicPartition("unlabelled-events", 1), 7, 8)
                .sentence("scoring"));
    }

    @Test
    void shouldKeepTheGapsStartAsTheLettersCoordinatesAndKey() {
        DeletedInput gap = new DeletedInput(new TopicPartition("labelled-events", 0), 40, 70);
        assertEquals(30, gap.offsets());
        DeadLetter letter = gap.letter("training");
        assertEquals("labelled-events", letter.topic());
        assertEquals(0, letter.partition());
        assertEquals(40, letter.offset());
        assertEquals("deleted before it was read: offsets 40 to 69 of labelled-events-0 (30 offsets: records, and"
                + " any transaction markers among them) were deleted by the broker (retention, or a deletion of"
                + " records) before the training application read them; they are not in the model. Keep the input's"
                + " retention.ms above the longest stop or lag you allow", letter.reason());
        assertNull(letter.keyBase64());
        assertNull(letter.valueBase64());
        assertEquals("labelled-events-0@40", gap.key());
    }

    @Test
    void shouldOnlyLogAGapOfAnInternalTopic() {
        List<DeadLetterCategory> told = new ArrayList<>();
        StringWriter console = new StringWriter();
        DeletedInputReport report = new DeletedInputReport("training", TOPICS, new Properties(), Duration.ofSeconds(1),
                new PrintWriter(console), new StreamObserver() {
                    @Override
                    public void deadLettered(DeadLetterCategory category) {
                        told.add(category);
                    }
                });
        // No broker behind it: a letter would fail; an internal topic's gap writes none.
        report.accept(new DeletedInput(new TopicPartition("app-training-partials-repartition", 0), 3, 9));
        assertEquals(List.of(), told);
        assertEquals("", console.toString());
    }
}
