package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InForceLinesTest {

    private static final Duration INTERVAL = Duration.ofMinutes(1);
    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);

    private InForceLines lines(boolean restoring) {
        return new InForceLines("m", INTERVAL, clock::get, restoring);
    }

    @Test
    void liveTheFirstModelAtOnceThenOneLineAMinuteCountingTheVersions() {
        InForceLines lines = lines(false);
        assertEquals(Optional.of("Model 'm' version 1 in force (from t-0 offset 0)"), lines.inForce(1, "t-0 offset 0"));
        clock.addAndGet(30 * SECOND);
        assertEquals(Optional.empty(), lines.inForce(2, "t-0 offset 1"));
        clock.addAndGet(29 * SECOND);
        assertEquals(Optional.empty(), lines.inForce(3, "t-0 offset 2"), "59 s after the last line");
        clock.addAndGet(SECOND);
        assertEquals(Optional.of("Model 'm' version 4 in force (from t-0 offset 3); 3 versions came in force since the"
                + " last such line"), lines.inForce(4, "t-0 offset 3"));
        assertEquals(Optional.empty(), lines.restored(), "not a restoring client's");
    }

    @Test
    void restoringNoLinePerVersionThenTheModelInForceWhenTheRestoreIsOver() {
        InForceLines lines = lines(true);
        for (int version = 1; version <= 13; version++) {
            assertEquals(Optional.empty(), lines.inForce(version, "t-0 offset " + (version - 1)), "v" + version);
        }
        clock.addAndGet(5 * SECOND);
        assertEquals(Optional.of("Model 'm' version 13 in force (from t-0 offset 12), the last of 13 versions put in"
                + " force while reading the model topic at start"), lines.restored());
        assertEquals(Optional.empty(), lines.restored(), "once");
        // Live from now on, and the restore's line counts as the last line.
        clock.addAndGet(59 * SECOND);
        assertEquals(Optional.empty(), lines.inForce(14, "t-0 offset 13"));
        clock.addAndGet(SECOND);
        assertEquals(Optional.of("Model 'm' version 15 in force (from t-0 offset 14); 2 versions came in force since"
                + " the last such line"), lines.inForce(15, "t-0 offset 14"));
    }

    @Test
    void aRestoreOfOneVersionSaysSo() {
        InForceLines lines = lines(true);
        assertEquals(Optional.empty(), lines.inForce(7, "t-2 offset 40"));
        assertEquals(Optional.of("Model 'm' version 7 in force (from t-2 offset 40), the last of 1 version put in"
                + " force while reading the model topic at start"), lines.restored());
    }

    @Test
    void aRestoreThatPutNothingInForceSaysNothingAndTheFirstLiveModelIsLoggedAtOnce() {
        InForceLines lines = lines(true);
        assertEquals(Optional.empty(), lines.restored());
        assertEquals(Optional.of("Model 'm' version 1 in force (from t-0 offset 0)"), lines.inForce(1, "t-0 offset 0"));
    }
}
