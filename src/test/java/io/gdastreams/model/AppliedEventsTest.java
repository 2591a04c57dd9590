package io.gdastreams.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What inspect and replay's report say about the events a model applied beyond what its classes hold. */
class AppliedEventsTest {

    private static ModelParameters model(long totalCount, long retracted, long generation, long dropped, long leftOut) {
        return new ModelParameters("m", 5, List.of("a"), totalCount, List.of(), Map.of("0", 1000L),
                "2026-01-01T00:00:00Z", "t", List.of(), retracted, generation, dropped, leftOut);
    }

    @Test
    void shouldSayNothingWhenTheClassesHoldEveryEvent() {
        assertEquals("", AppliedEvents.beyondTheClasses(model(150, 0, 0, 0, 0)));
    }

    @Test
    void shouldSumEveryEventTheLineageApplied() {
        // 144 in the classes + 2 × 3 (each retraction and the event it removed) + 40 dropped + 1,200 left out.
        assertEquals(" (1,390 applied: 3 retractions and the events they removed; 40 dropped by drift resets"
                + " (reset generation 2); 1,200 of classes left out by the size bound)",
                AppliedEvents.beyondTheClasses(model(144, 3, 2, 40, 1200)));
        assertEquals(" (12 applied: 1 retraction and the event it removed)",
                AppliedEvents.beyondTheClasses(model(10, 1, 0, 0, 0)));
    }

    @Test
    void shouldNameAResetGenerationEvenWhenItDroppedNothing() {
        assertEquals(" (7 applied: 0 dropped by drift resets (reset generation 1))",
                AppliedEvents.beyondTheClasses(model(7, 0, 1, 0, 0)));
    }
}
