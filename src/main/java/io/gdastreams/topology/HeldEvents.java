package io.gdastreams.topology;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The events a scoring task holds while no model can score them (and those that arrive while they are released),
 * in arrival order, in its changelog-backed store
 * ({@link ScoringTopology#PENDING_STORE}), with their number kept for the bound and the observer. Kafka Streams
 * re-initialises a resumed task on the same processor instance, so the count is always taken from the store
 * ({@link #open}), never carried over: otherwise held events would be counted twice and never drain to zero.
 */
final class HeldEvents {

    /** Entries read from the store at a time while releasing (the store is not changed under an open iterator). */
    private static final int RELEASE_CHUNK = 64;

    private final KeyValueStore<Long, PendingEvent> store;
    private final StreamObserver observer;
    private final String taskId;
    private long count;
    private long nextSequence;

    private HeldEvents(KeyValueStore<Long, PendingEvent> store, StreamObserver observer, String taskId) {
        this.store = store;
        this.observer = observer;
        this.taskId = taskId;
    }

    /** The held events of task {@code taskId}, counted from {@code store}. */
    static HeldEvents open(KeyValueStore<Long, PendingEvent> store, StreamObserver observer, String taskId) {
        HeldEvents held = new HeldEvents(store, observer, taskId);
        try (KeyValueIterator<Long, PendingEvent> it = store.all()) {
            while (it.hasNext()) {
                long sequence = it.next().key;
                held.count++;
                held.nextSequence = Math.max(held.nextSequence, sequence + 1);
            }
        }
        observer.pendingEvents(taskId, held.count);
        return held;
    }

    long count() {
        return count;
    }

    void hold(PendingEvent event) {
        store.put(nextSequence, event);
        nextSequence++;
        count++;
        observer.pendingEvents(taskId, count);
    }

    /**
     * Hands the held events to {@code answer}, oldest first, deleting each from the store after it was answered, until
     * none is left or {@code enough} says so (asked after each event: at least one is answered); returns how many
     * were. The rest stay held, in order, for the next call.
     */
    int release(Consumer<PendingEvent> answer, BooleanSupplier enough) {
        int released = 0;
        // Past the entries released: a scan from the start would step over their deletes. Sequences are non-negative
        // (their big-endian bytes sort as numbers only then: SerdeFactory.sequence).
        long from = 0;
        while (count > 0) {
            List<KeyValue<Long, PendingEvent>> chunk = new ArrayList<>(RELEASE_CHUNK);
            try (KeyValueIterator<Long, PendingEvent> it = store.range(from, Long.MAX_VALUE)) {
                while (it.hasNext() && chunk.size() < RELEASE_CHUNK) {
                    chunk.add(it.next());
                }
            }
            if (chunk.isEmpty()) {
                count = 0; // the store is the truth (see the class comment)
                break;
            }
            for (KeyValue<Long, PendingEvent> entry : chunk) {
                answer.accept(entry.value);
                store.delete(entry.key);
                from = entry.key + 1;
                count--;
                released++;
                if (enough.getAsBoolean()) {
                    observer.pendingEvents(taskId, count);
                    return released;
                }
            }
        }
        observer.pendingEvents(taskId, count);
        return released;
    }

    /** The task leaves this process (its held events stay in the store and its changelog). */
    void leave() {
        observer.pendingEvents(taskId, 0);
    }

    /**
     * The features of a held event: kept decoded (older entries, which have no categorical values), or decoded again
     * from its original value.
     */
    static UnlabelledEvent decoded(PendingEvent event, int maxFeatures, Set<String> categorical) {
        if (event.features() != null) {
            return new UnlabelledEvent(event.id(), event.features());
        }
        Decoded<UnlabelledEvent> decoded = EventDecoder.decodeUnlabelled(event.value(), maxFeatures, categorical);
        if (!decoded.isOk()) {
            throw new IllegalStateException("held event no longer decodes: " + decoded.error());
        }
        return decoded.value();
    }

    /** The dead letter of a held event, with the source coordinates it kept (older entries kept none). */
    static DeadLetter deadLetter(PendingEvent event, String reason) {
        if (event.value() == null) {
            reason += " (held before the scorer kept source coordinates: topic, partition, offset and value unknown)";
        }
        return DeadLetters.of(reason, event.topic(), event.partition() == null ? -1 : event.partition(),
                event.offset() == null ? -1L : event.offset(), event.key(), event.value());
    }

    /**
     * What a held event keeps of its record's headers: those its answer carries (within {@link CarriedHeaders}'
     * bound, else none), in order; null for none.
     */
    static List<PendingEvent.Header> keptHeaders(Headers headers) {
        List<PendingEvent.Header> kept = new ArrayList<>();
        for (Header header : CarriedHeaders.of(headers)) {
            kept.add(new PendingEvent.Header(header.key(), header.value()));
        }
        return kept.isEmpty() ? null : kept;
    }

    /** The headers a held event's answer and dead letter carry: those it kept (entries before headers had none). */
    static Headers headers(PendingEvent event) {
        RecordHeaders headers = new RecordHeaders();
        if (event.headers() != null) {
            for (PendingEvent.Header header : event.headers()) {
                headers.add(header.key(), header.value());
            }
        }
        return headers;
    }
}
