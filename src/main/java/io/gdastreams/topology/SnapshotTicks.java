package io.gdastreams.topology;

import java.time.Duration;

/**
 * The wall-clock ticks on which every partition task snapshots: the multiples of the publish interval since the
 * epoch, the same for every task of every instance (up to clock skew). Kafka Streams starts a task's periodic
 * punctuator at the task's own start, so tasks scheduled with the interval itself would snapshot at unrelated
 * phases, and the combiner, which publishes about once per interval, would leave the snapshots arriving just
 * after a publish for one more interval. Tasks instead check every {@link #MAX_CHECK_MS} ms (or ten times per
 * interval if that is more often) and snapshot at the first check of each new tick: a check is one division, and
 * its period is all the delay it adds.
 */
final class SnapshotTicks {

    /** At least this many checks per interval. */
    static final int CHECKS_PER_INTERVAL = 10;
    /** The longest time between two checks: a tick is met within this. */
    static final long MAX_CHECK_MS = 10;

    private final long intervalMs;
    private long lastTick;

    /** Starts in the tick of {@code nowMs}: the first snapshot is at the next tick. */
    SnapshotTicks(Duration interval, long nowMs) {
        this.intervalMs = Math.max(1, interval.toMillis());
        this.lastTick = Math.floorDiv(nowMs, intervalMs);
    }

    /** How often the owner's punctuator should call {@link #crossed}. */
    Duration checkPeriod() {
        return checkPeriod(Duration.ofMillis(intervalMs));
    }

    /**
     * Every {@link #MAX_CHECK_MS} ms, or ten times per interval when that is more often: the period of the training
     * application's wall-clock checks (the tasks' ticks, the combiner's publishes).
     */
    static Duration checkPeriod(Duration interval) {
        long intervalMs = Math.max(1, interval.toMillis());
        return Duration.ofMillis(Math.max(1, Math.min(MAX_CHECK_MS, intervalMs / CHECKS_PER_INTERVAL)));
    }

    /** The tick of the last {@link #crossed} that returned true (or of construction): ⌊now / interval⌋. */
    long tick() {
        return lastTick;
    }

    /** Whether a new tick began since the last call (or construction); at most true once per tick. */
    boolean crossed(long nowMs) {
        long tick = Math.floorDiv(nowMs, intervalMs);
        if (tick <= lastTick) {
            return false;
        }
        lastTick = tick;
        return true;
    }
}
