package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * When a partition the service reads counts as held (its last stable offset short of its end, unmoved for the
 * patience), how often it is reported, and what the report says of the transaction that holds it.
 */
class HeldInputsTest {

    private static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final TopicPartition INPUT = new TopicPartition("labelled", 3);
    private static final TopicPartition OTHER = new TopicPartition("labelled", 1);
    private static final long NOW = 1_800_000_000_000L;
    private static final String BOOTSTRAP = "broker-1:9092";

    private final long[] clock = {0};
    private final HeldInputs inputs = new HeldInputs("training", PATIENCE, () -> clock[0]);

    private Map<TopicPartition, HeldInputs.Standing> observeAt(Duration at, Map<TopicPartition, HeldInputs.Offsets>
            offsets) {
        clock[0] = at.toNanos();
        return inputs.observe(offsets);
    }

    @Test
    void shouldReportAPartitionWhoseLastStableOffsetStandsShortOfItsEndForThePatienceOncePerPatience() {
        var held = new HeldInputs.Offsets(1234, 1300);
        var moving = new HeldInputs.Offsets(50, 60);
        assertEquals(Map.of(), observeAt(Duration.ZERO, Map.of(INPUT, held, OTHER, moving)));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(4), Map.of(INPUT, held,
                OTHER, new HeldInputs.Offsets(58, 70))));
        // Five minutes at 1234 (more events arrived behind it: the end moved, the last stable offset did not).
        assertEquals(Map.of(INPUT, new HeldInputs.Standing(1234, 1310, 0)), observeAt(Duration.ofMinutes(5),
                Map.of(INPUT, new HeldInputs.Offsets(1234, 1310), OTHER, new HeldInputs.Offsets(70, 75))));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(9), Map.of(INPUT, held, OTHER, moving)),
                "reported once per patience");
        assertEquals(Map.of(INPUT, new HeldInputs.Standing(1234, 1300, 0)), observeAt(Duration.ofMinutes(10),
                Map.of(INPUT, held)));
        // It moves: afresh. Read to its end: not held. No longer read: forgotten.
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(16), Map.of(INPUT, new HeldInputs.Offsets(1240, 1300))));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(20), Map.of(INPUT, new HeldInputs.Offsets(1240, 1300))));
        assertEquals(Map.of(INPUT, new HeldInputs.Standing(1240, 1300, Duration.ofMinutes(16).toNanos())),
                observeAt(Duration.ofMinutes(21), Map.of(INPUT, new HeldInputs.Offsets(1240, 1300))));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(30), Map.of(INPUT, new HeldInputs.Offsets(1300, 1300))));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(36), Map.of(INPUT, new HeldInputs.Offsets(1300, 1301))));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(42), Map.of()));
        assertEquals(Map.of(), observeAt(Duration.ofMinutes(48), Map.of(INPUT, new HeldInputs.Offsets(1300, 1301))),
                "a partition read again starts afresh");
    }

    @Test
    void shouldCheckAtMostOncePerIntervalOfThePatienceOrHalfAMinute() {
        assertTrue(inputs.due(), "the first check is due at once");
        assertFalse(inputs.due());
        clock[0] = Duration.ofSeconds(29).toNanos();
        assertFalse(inputs.due());
        clock[0] = Duration.ofSeconds(30).toNanos();
        assertTrue(inputs.due());
        assertEquals(Duration.ofSeconds(5), new HeldInputs("scoring", Duration.ofSeconds(5), () -> 0).interval());
    }

    private String report(ChangelogOnBroker.OpenTransaction open) {
        clock[0] = Duration.ofMinutes(6).toNanos();
        return inputs.report(INPUT, new HeldInputs.Standing(1234, 1300, 0), Optional.of(new ChangelogOnBroker(1300,
                1234, OptionalLong.empty(), List.of(open))), null, BOOTSTRAP, NOW);
    }

    @Test
    void shouldNameTheTransactionThatHoldsItAndLeaveItToItsWriter() {
        var hanging = new ChangelogOnBroker.OpenTransaction(7, 0, OptionalInt.of(1), 1234,
                NOW - Duration.ofMinutes(8).toMillis(), Optional.of(new ChangelogOnBroker.CoordinatorView(
                        Optional.of("orders-writer"), "CompleteCommit", 3, false)));
        assertEquals("training: input partition labelled-3 has stood at its last stable offset 1234 for 6 min, short"
                + " of its end offset 1300: an exactly-once application reads no further. A transaction open since"
                + " offset 1234 holds it (producer 7, epoch 0, last write 8 min ago). It is hanging: its coordinator"
                + " has moved on (transactional id orders-writer is CompleteCommit at epoch 3, without this"
                + " partition), so nothing but an abort will end it. It is its writer's to end, not this service's:"
                + " `kafka-transactions.sh --bootstrap-server broker-1:9092 abort --topic labelled --partition 3"
                + " --start-offset 1234` ends it and drops its records, as an aborted transaction's."
                + " (docs/RELIABILITY.md, 'Input held by a transaction')", report(hanging));

        var ongoing = new ChangelogOnBroker.OpenTransaction(7, 0, OptionalInt.of(1), 1234, NOW, Optional.of(
                new ChangelogOnBroker.CoordinatorView(Optional.of("orders-writer"), "Ongoing", 0, true)));
        assertTrue(report(ongoing).contains(" Its coordinator counts it open (transactional id orders-writer is"
                + " Ongoing at epoch 0): its producer commits or aborts it, or the broker aborts it after"
                + " transaction.max.timeout.ms (15 min by default). (docs/"), report(ongoing));

        var unasked = new ChangelogOnBroker.OpenTransaction(7, 0, OptionalInt.of(1), 1234, NOW);
        assertTrue(report(unasked).contains(" If it has been open longer than the broker's transaction.max.timeout.ms"
                + " (15 min by default) it is hanging. It is its writer's to end"), report(unasked));

        // A transaction that starts elsewhere does not hold this offset.
        var later = new ChangelogOnBroker.OpenTransaction(8, 0, OptionalInt.of(1), 1250, NOW);
        assertTrue(report(later).endsWith("an exactly-once application reads no further. The broker names no"
                + " transaction open there. (docs/RELIABILITY.md, 'Input held by a transaction')"), report(later));
        assertTrue(inputs.report(INPUT, new HeldInputs.Standing(1234, 1300, 0), Optional.empty(), "TimeoutException: x",
                BOOTSTRAP, NOW).contains("The broker could not be asked about its transactions (TimeoutException: x)."));
    }
}
