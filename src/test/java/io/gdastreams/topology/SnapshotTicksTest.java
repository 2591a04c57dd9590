package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Snapshot ticks: the multiples of the interval since the epoch, whenever the task started. */
class SnapshotTicksTest {

    private static final Duration INTERVAL = Duration.ofMillis(250);

    @Test
    void shouldCrossOnceAtEachMultipleOfTheIntervalWhateverTheStart() {
        SnapshotTicks early = new SnapshotTicks(INTERVAL, 1_010);
        SnapshotTicks late = new SnapshotTicks(INTERVAL, 1_240);
        assertEquals(Duration.ofMillis(10), early.checkPeriod(), "every 10 ms");
        assertEquals(Duration.ofMillis(5), new SnapshotTicks(Duration.ofMillis(50), 0).checkPeriod(),
                "ten times per interval when that is more often");
        assertFalse(early.crossed(1_249));
        assertFalse(late.crossed(1_249));
        assertTrue(early.crossed(1_250), "both started in [1000, 1250): both snapshot at 1250");
        assertTrue(late.crossed(1_250));
        assertFalse(early.crossed(1_260), "once per tick");
        assertTrue(early.crossed(1_760), "a late check still crosses, once, however many ticks it missed");
        assertFalse(early.crossed(1_999));
        assertTrue(early.crossed(2_000));
    }
}
