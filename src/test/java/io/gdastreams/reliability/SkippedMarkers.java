package io.gdastreams.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transaction markers the broker says it skipped because their partition had no leader at that moment
 * (KAFKA-20734, in Kafka 4.3.1 and 4.4.0: a marker skipped there leaves the transaction's records open on the
 * partition, and the producer's next commit commits them; docs/RELIABILITY.md, "A Kafka bug that can duplicate
 * output"), read from the broker's log (the embedded broker logs {@code kafka.coordinator.transaction} at INFO). A
 * fault test uses it to tell a record the broker duplicated from one gda-streams wrote twice: a copy is the broker's
 * only when a marker of its partition was skipped after it was written.
 */
final class SkippedMarkers {

    /** The broker's line, with its time of day and the partitions it names. */
    private static final Pattern LINE = Pattern.compile(
            "^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3}) .*Couldn't find leader endpoint for partitions Set\\(([^)]*)\\)");
    /**
     * How long after a record's timestamp its transaction's abort may come: the transaction timeout (10 s in the
     * fault plan) plus a broker restart whose dead incarnation's session (9 s) must expire first, with room.
     */
    static final Duration WINDOW = Duration.ofSeconds(120);
    /**
     * A copy's timestamp is its input's, stamped when the test sent it, before it was scored and written; the broker
     * logs on the same clock. One second of slack for the log line's own timing.
     */
    private static final Duration BEFORE = Duration.ofSeconds(1);

    private record Skip(LocalTime at, Set<String> partitions) {
    }

    private final List<Skip> skips;

    private SkippedMarkers(List<Skip> skips) {
        this.skips = skips;
    }

    static SkippedMarkers in(Path brokerLog) {
        List<Skip> skips = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(brokerLog, StandardCharsets.UTF_8)) {
                Matcher m = LINE.matcher(line);
                if (m.find()) {
                    skips.add(new Skip(LocalTime.parse(m.group(1)), Set.of(m.group(2).split(", "))));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SkippedMarkers(skips);
    }

    /**
     * Whether the broker skipped a marker of {@code topic}-{@code partition} between {@link #BEFORE} before and
     * {@link #WINDOW} after {@code timestampMillis} (the broker's log gives times of day in this JVM's zone).
     */
    boolean explains(String topic, int partition, long timestampMillis) {
        Instant written = Instant.ofEpochMilli(timestampMillis);
        LocalDate day = LocalDate.ofInstant(written, ZoneId.systemDefault());
        String name = topic + "-" + partition;
        for (Skip skip : skips) {
            if (skip.partitions().contains(name)) {
                Instant at = skip.at().atDate(day).atZone(ZoneId.systemDefault()).toInstant();
                if (!at.isBefore(written.minus(BEFORE)) && !at.isAfter(written.plus(WINDOW))) {
                    return true;
                }
            }
        }
        return false;
    }

    int count() {
        return skips.size();
    }
}
