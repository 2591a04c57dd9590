package io.gdastreams.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.PartitionProgress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules that decide whether a restored partition state is the one its committed input offset stands for. */
class RestoreCheckTest {

    private static final String TOPIC = "labelled";
    private static final List<String> SCHEMA = List.of("x", "y");

    /** Input offsets 0..99 of which the given ones hold only transaction markers; records read are logged. */
    private static final class Input implements CommittedInput {
        final OptionalLong committed;
        final Set<Long> markers;
        final List<long[]> ranges = new ArrayList<>();

        Input(OptionalLong committed, Set<Long> markers) {
            this.committed = committed;
            this.markers = markers;
        }

        @Override
        public OptionalLong committedOffset(String topic, int partition) {
            assertEquals(TOPIC, topic);
            assertEquals(3, partition);
            return committed;
        }

        @Override
        public boolean hasRecords(String topic, int partition, long from, long to) {
            ranges.add(new long[] {from, to});
            for (long offset = from; offset < to; offset++) {
                if (!markers.contains(offset)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static PartitionProgress state(long nextOffset, long applied, long deadLettered) {
        return new PartitionProgress(3, nextOffset, applied, deadLettered, SCHEMA);
    }

    private static Optional<String> check(PartitionProgress state, OptionalLong committed, boolean exactlyOnce,
                                          Set<Long> markers) {
        return RestoreCheck.problem(TOPIC, state, exactlyOnce, new Input(committed, markers));
    }

    @Test
    void shouldAcceptTheStateTheCommittedOffsetStandsFor() {
        for (boolean exactlyOnce : new boolean[] {true, false}) {
            assertEquals(Optional.empty(), check(state(40, 38, 2), OptionalLong.of(40), exactlyOnce, Set.of()));
            assertEquals(Optional.empty(), check(state(0, 0, 0), OptionalLong.empty(), exactlyOnce, Set.of()));
        }
    }

    @Test
    void shouldAcceptAGapOfTransactionMarkersOnlyAndReadExactlyThatGap() {
        Input input = new Input(OptionalLong.of(42), Set.of(40L, 41L));
        assertEquals(Optional.empty(), RestoreCheck.problem(TOPIC, state(40, 40, 0), true, input));
        assertEquals(1, input.ranges.size());
        assertEquals(40, input.ranges.get(0)[0]);
        assertEquals(42, input.ranges.get(0)[1]);
    }

    @Test
    void shouldRefuseAStateBehindRecordsTheGroupCommittedUnderEitherGuarantee() {
        for (boolean exactlyOnce : new boolean[] {true, false}) {
            Optional<String> problem = check(state(20, 20, 0), OptionalLong.of(30), exactlyOnce, Set.of(20L));
            assertTrue(problem.isPresent(), "exactly-once " + exactlyOnce);
            assertEquals("the training state of labelled-3 reaches offset 20 but the consumer group committed offset"
                    + " 30: the records in between were read and committed, and the state restored by Kafka Streams"
                    + " does not hold them", problem.get());
        }
    }

    @Test
    void shouldRefuseAnEmptyStateOfAPartitionWhoseRecordsWereCommitted() {
        assertTrue(check(state(0, 0, 0), OptionalLong.of(5), true, Set.of()).isPresent());
    }

    @Test
    void shouldRefuseUnderExactlyOnceOnlyAStateAheadOfTheCommittedOffsets() {
        Optional<String> ahead = check(state(50, 50, 0), OptionalLong.of(30), true, Set.of());
        assertTrue(ahead.orElseThrow().contains("reaches offset 50 but the consumer group committed offset 30"),
                ahead.get());
        assertTrue(ahead.get().contains("would count 20 offsets twice"), ahead.get());
        Optional<String> noOffsets = check(state(50, 49, 1), OptionalLong.empty(), true, Set.of());
        assertTrue(noOffsets.orElseThrow().contains("has read 50 records up to offset 50 but the consumer group has"
                + " no committed offset"), noOffsets.get());

        assertEquals(Optional.empty(), check(state(50, 50, 0), OptionalLong.of(30), false, Set.of()));
        assertEquals(Optional.empty(), check(state(50, 50, 0), OptionalLong.empty(), false, Set.of()));
    }
}
