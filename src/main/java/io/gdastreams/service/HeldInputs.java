package io.gdastreams.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Names the partitions an exactly-once service reads that a transaction has held for the patience.
 *
 * <p>Why: a read_committed consumer (every exactly-once application) reads no further than a partition's last stable
 * offset, the first offset of the oldest transaction still open on it. A transaction its producer never ends (a
 * crashed producer's is aborted after its timeout; a hanging one, whose coordinator has moved on, never is) holds
 * every event behind it, without an error anywhere: the service merely looks idle, its progress line at 0 events/s.
 * Each check compares every read partition's last stable offset and end offset with the previous check's: one that
 * has stood still, short of its end, for the patience is held, and is reported with the transaction that holds it
 * (once per patience while it lasts). The service does not abort it: the transaction is its writer's
 * (docs/RELIABILITY.md, "Input held by a transaction").
 */
final class HeldInputs {

    /** Where a partition's last stable offset stands, short of its end offset, and since when (nanos). */
    record Standing(long lastStable, long end, long sinceNanos) {
    }

    /** A partition's last stable offset and end offset, as asked of the broker. */
    record Offsets(long lastStable, long end) {
    }

    /** Reports come in partition order. */
    private static final Comparator<TopicPartition> BY_PARTITION = Comparator.comparing(TopicPartition::topic)
            .thenComparingInt(TopicPartition::partition);

    private final String service;
    private final Duration patience;
    private final LongSupplier nanoClock;
    private final Map<TopicPartition, Standing> standing = new HashMap<>();
    private final Map<TopicPartition, Long> reportedAt = new HashMap<>();
    /** The last report of each partition held now (cleared when it moves, reaches its end or is no longer read). */
    private final Map<TopicPartition, Held> held = new java.util.concurrent.ConcurrentHashMap<>();
    private long lastCheck;

    /** A partition held now, where, and its last report. */
    record Held(TopicPartition partition, long lastStable, long end, String report) {
    }

    HeldInputs(String service, Duration patience, LongSupplier nanoClock) {
        this.service = service;
        this.patience = patience;
        this.nanoClock = nanoClock;
        this.lastCheck = nanoClock.getAsLong() - interval().toNanos();
    }

    /** How often the offsets are asked: the patience, at most every 30 s. */
    Duration interval() {
        return patience.compareTo(Duration.ofSeconds(30)) < 0 ? patience : Duration.ofSeconds(30);
    }

    /** True once {@link #interval()} has passed since the last check (which this then counts as made now). */
    boolean due() {
        long now = nanoClock.getAsLong();
        if (now - lastCheck < interval().toNanos()) {
            return false;
        }
        lastCheck = now;
        return true;
    }

    /**
     * Takes one check's {@code offsets} of the partitions read now: returns those held for the patience and not
     * reported in the last patience (each is counted as reported now), with where they stand. A partition whose last
     * stable offset moved, that reached its end, or that is no longer read, starts afresh.
     */
    Map<TopicPartition, Standing> observe(Map<TopicPartition, Offsets> offsets) {
        long now = nanoClock.getAsLong();
        standing.keySet().retainAll(offsets.keySet());
        reportedAt.keySet().retainAll(offsets.keySet());
        this.held.keySet().retainAll(offsets.keySet());
        Map<TopicPartition, Standing> held = new HashMap<>();
        offsets.forEach((partition, at) -> {
            Standing before = standing.get(partition);
            if (at.lastStable() >= at.end()) {
                standing.remove(partition);
                reportedAt.remove(partition);
                this.held.remove(partition);
                return;
            }
            if (before == null || before.lastStable() != at.lastStable()) {
                standing.put(partition, new Standing(at.lastStable(), at.end(), now));
                reportedAt.remove(partition);
                this.held.remove(partition);
                return;
            }
            Standing still = new Standing(at.lastStable(), at.end(), before.sinceNanos());
            standing.put(partition, still);
            Long reported = reportedAt.get(partition);
            if (now - still.sinceNanos() >= patience.toNanos()
                    && (reported == null || now - reported >= patience.toNanos())) {
                reportedAt.put(partition, now);
                held.put(partition, still);
            }
        });
        return held;
    }

    /**
     * The report of {@code partition}, held where {@code standing} says, by what {@code onBroker} says of it (empty:
     * the broker could not be asked, for {@code failure}); {@code bootstrap} goes into the command that ends the
     * transaction, {@code nowMillis} dates its last write.
     */
    String report(TopicPartition partition, Standing standing, Optional<ChangelogOnBroker> onBroker, String failure,
                  String bootstrap, long nowMillis) {
        long heldFor = Math.max(0, nanoClock.getAsLong() - standing.sinceNanos());
        String head = String.format("%s: input partition %s has stood at its last stable offset %d for %s, short of"
                        + " its end offset %d: an exactly-once application reads no further.", service, partition,
                standing.lastStable(), StalledRestore.span(Duration.ofSeconds(TimeUnit.NANOSECONDS.toSeconds(heldFor))),
                standing.end());
        String tail = " (docs/RELIABILITY.md, 'Input held by a transaction')";
        if (onBroker.isEmpty()) {
            return head + " The broker could not be asked about its transactions (" + failure + ")." + tail;
        }
        Optional<ChangelogOnBroker.OpenTransaction> holder = onBroker.get().open().stream()
                .filter(open -> open.startOffset() == standing.lastStable()).findFirst();
        if (holder.isEmpty()) {
            return head + " The broker names no transaction open there." + tail;
        }
        ChangelogOnBroker.OpenTransaction open = holder.get();
        String held = open.holdsIt(nowMillis);
        String ends = " It is its writer's to end, not this service's: " + open.abortCommand(bootstrap, partition)
                + " ends it and drops its records, as an aborted transaction's.";
        if (open.hanging()) {
            return head + held + open.hangingSentence() + ends + tail;
        }
        if (open.coordinator().isPresent()) {
            return head + held + " Its coordinator counts it open (" + open.coordinatorSays().orElseThrow() + "): its"
                    + " producer commits or aborts it, or the broker aborts it after transaction.max.timeout.ms (15 min"
                    + " by default)." + tail;
        }
        return head + held + " If it has been open longer than the broker's transaction.max.timeout.ms (15 min by"
                + " default) it is hanging." + ends + tail;
    }

    /**
     * One check, when {@link #due()}: asks the offsets of what {@code reading} gives (the partitions the service reads
     * now) through an admin client of {@code client}'s settings, in {@code timeout} at most, and logs through
     * {@code log} the report of each partition held for the patience, asking {@code broker} which transaction holds
     * it. Returns the reports. A broker that does not answer is not a finding here: the restore and start-up checks
     * speak of that.
     */
    List<String> check(Supplier<Collection<TopicPartition>> reading, Properties client,
                       ChangelogOnBroker.Source broker, String bootstrap, Duration timeout, Consumer<String> log)
            throws InterruptedException {
        if (!due()) {
            return List.of();
        }
        Collection<TopicPartition> read = reading.get();
        if (read.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, Standing> held;
        Admin admin = Admin.create(client);
        try {
            held = observe(offsets(admin, read, timeout.dividedBy(2)));
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return List.of();
        } finally {
            admin.close(Duration.ZERO);
        }
        List<String> reports = new ArrayList<>();
        for (TopicPartition partition : held.keySet().stream().sorted(BY_PARTITION).toList()) {
            Standing at = held.get(partition);
            Optional<ChangelogOnBroker> onBroker = Optional.empty();
            String failure = null;
            try {
                onBroker = Optional.of(broker.ask(partition, at.lastStable()));
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failure = StreamsApp.rootMessage(e);
            }
            String report = report(partition, at, onBroker, failure, bootstrap, System.currentTimeMillis());
            this.held.put(partition, new Held(partition, at.lastStable(), at.end(), report));
            log.accept(report);
            reports.add(report);
        }
        return reports;
    }

    /** The partitions held now, with their last reports, in partition order. */
    List<Held> held() {
        return held.values().stream().sorted(Comparator.comparing(Held::partition, BY_PARTITION)).toList();
    }

    /** The last stable offset and end offset of each of {@code partitions}, asked through {@code admin}. */
    static Map<TopicPartition, Offsets> offsets(Admin admin, Collection<TopicPartition> partitions, Duration timeout)
            throws Exception {
        Map<TopicPartition, OffsetSpec> latest = partitions.stream()
                .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> stable = admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(latest,
                new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Offsets> offsets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            offsets.put(partition, new Offsets(stable.get(partition).offset(), end.get(partition).offset()));
        }
        return offsets;
    }
}
