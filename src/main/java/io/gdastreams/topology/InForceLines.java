package io.gdastreams.topology;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Which "model in force" lines a scorer's model cache logs. Live: the first model in force, then at most one line
 * per interval (a minute in service), which counts the versions it stands for: a trainer publishing every second
 * would otherwise write 86,400 lines a day, and the progress line names the version in force anyway.
 *
 * <p>While its client restores the model topic (at every start a scorer reads the compacted topic from the
 * beginning, and each version goes through the cache again) nothing: the first version of a restore is not the
 * model the scorer will score with, and the others are old news. When the restore is over, one line names the model
 * in force and how many versions the restore put in force, that one the last.
 *
 * <p>Returns the lines rather than logging them, so that what is said can be tested; thread-safe.
 */
final class InForceLines {

    /** Live lines at most once per this interval in service (the first model's line aside). */
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final String modelId;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private boolean restoring;
    private long lastLine;
    /** Versions that came in force since the last line (or since the restore began). */
    private long versionsSinceLine;
    /** The newest version in force, where it was read, and whether any came in force at all. */
    private long version;
    private String source;
    private boolean any;

    /**
     * @param restoring true when the cache's client has yet to restore the model topic: no line until
     *                  {@link #restored()}
     */
    InForceLines(String modelId, Duration interval, LongSupplier nanoClock, boolean restoring) {
        this.modelId = modelId;
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
        this.restoring = restoring;
    }

    /** Version {@code version}, read at {@code source}, came in force: the line to log, if one is due. */
    synchronized Optional<String> inForce(long version, String source) {
        boolean first = !any;
        this.version = version;
        this.source = source;
        this.any = true;
        versionsSinceLine++;
        long now = nanoClock.getAsLong();
        if (restoring || !first && now - lastLine < intervalNanos) {
            return Optional.empty();
        }
        long count = versionsSinceLine;
        versionsSinceLine = 0;
        lastLine = now;
        return Optional.of(line() + (count > 1 ? "; " + count + " versions came in force since the last such line"
                : ""));
    }

    /**
     * The restore of the model topic is over: the line naming the model in force, if the restore put one in force
     * (after it, lines are live). Empty when not restoring, or nothing came in force.
     */
    synchronized Optional<String> restored() {
        if (!restoring) {
            return Optional.empty();
        }
        restoring = false;
        if (!any) {
            return Optional.empty();
        }
        long count = versionsSinceLine;
        versionsSinceLine = 0;
        lastLine = nanoClock.getAsLong();
        return Optional.of(line() + ", the last of " + count + (count == 1 ? " version" : " versions")
                + " put in force while reading the model topic at start");
    }

    /** The quiet counterpart of a line not logged (for a debug log). */
    String brief(long version, String source) {
        return "Model '" + modelId + "' version " + version + " in force (from " + source + ")";
    }

    private String line() {
        return brief(version, source);
    }
}
