package io.gdastreams.topology;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.Decoded;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.SerdeFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The events a scoring task holds while no model can score them (and those that arrive while they are released),
 * in arrival order, in its changelog-backed store
 * ({@link ScoringTopology#PENDING_STORE}), with their number kept for the bound and the observer. Kafka Streams
 * re-initialises a resumed task on the same processor instance, so the count is always taken from the store
 * ({@link #open}), never carried over: otherwise held events would be counted twice and never drain to zero.
 *
 * <p>The store keeps the entries' bytes, keys and values, and this class reads them when it releases them: an entry
 * restored from a changelog that does not read as a held event (damaged or forged; no scorer writes one) is
 * dead-lettered then, with its bytes and the changelog it came from, rather than stop the task at every start. So is
 * an entry under a key that is no sequence a scorer uses (not 8 bytes, negative, or at or above
 * {@link #SEQUENCE_LIMIT}), which would otherwise never be released, or make the next sequence wrap. Keys are a
 * sequence's 8 big-endian bytes ({@link #key}): the store's byte order is the sequences' order.
 */
final class HeldEvents {

    /** Entries read from the store at a time while releasing (the store is not changed under an open iterator). */
    private static final int RELEASE_CHUNK = 64;
    /** The JSON of a held event: what the store's entries hold. */
    private static final Serde<PendingEvent> ENTRIES = SerdeFactory.pendingEvent();
    /** The store's keys: a sequence's big-endian bytes, whose byte order is the sequences' for those ≥ 0. */
    private static final Serde<Long> SEQUENCES = SerdeFactory.sequence();
    /** Sequences a scorer uses are below this (no task holds 2^62 events). */
    static final long SEQUENCE_LIMIT = 1L << 62;

    private final KeyValueStore<byte[], byte[]> store;
    private final StreamObserver observer;
    private final String taskId;
    private final String applicationId;
    private final int partition;
    private long count;
    private long nextSequence;
    /** Entries under keys that are no sequence a scorer uses, found by {@link #open}: dead-lettered at a release. */
    private long strays;

    private HeldEvents(KeyValueStore<byte[], byte[]> store, StreamObserver observer, String taskId,
                       String applicationId, int partition) {
        this.store = store;
        this.observer = observer;
        this.taskId = taskId;
        this.applicationId = applicationId;
        this.partition = partition;
    }

    /**
     * The held events of task {@code taskId} (its input partition {@code partition}) of application
     * {@code applicationId}, counted from {@code store} (whose changelog a damaged entry's dead letter names).
     */
    static HeldEvents open(KeyValueStore<byte[], byte[]> store, StreamObserver observer, String taskId,
                           String applicationId, int partition) {
        HeldEvents held = new HeldEvents(store, observer, taskId, applicationId, partition);
        try (KeyValueIterator<byte[], byte[]> it = store.all()) {
            while (it.hasNext()) {
                byte[] key = it.next().key;
                held.count++;
                if (stray(key)) {
                    held.strays++;
                } else {
                    held.nextSequence = Math.max(held.nextSequence, sequence(key) + 1);
                }
            }
        }
        observer.pendingEvents(taskId, held.count);
        return held;
    }

    long count() {
        return count;
    }

    /**
     * Whether no event can be held now: {@code maxPending} are, or no sequence is left below the limit (a forged
     * entry just below it, not yet released; once every held event is, the sequences start at 0 again).
     */
    boolean full(int maxPending) {
        if (count == 0) {
            nextSequence = 0;
        }
        return count >= maxPending || nextSequence >= SEQUENCE_LIMIT;
    }

    /** Holds {@code event} under the next sequence; {@link #full} must have said there is room. */
    void hold(PendingEvent event) {
        if (nextSequence >= SEQUENCE_LIMIT) {
            throw new IllegalStateException("no sequence left below " + SEQUENCE_LIMIT + " to hold an event under");
        }
        store.put(key(nextSequence), ENTRIES.serializer().serialize(ScoringTopology.PENDING_STORE, event));
        nextSequence++;
        count++;
        observer.pendingEvents(taskId, count);
    }

    /**
     * Hands the held events to {@code answer}, oldest first, deleting each from the store after it was answered, until
     * none is left or {@code enough} says so (asked after each entry: at least one is taken); returns how many were
     * answered. An entry that is not a held event goes to {@code damaged} as its dead letter instead (and is not
     * counted). The rest stay held, in order, for the next call.
     */
    int release(Consumer<PendingEvent> answer, Consumer<DeadLetter> damaged, BooleanSupplier enough) {
        int answered = 0;
        if (strays > 0) {
            releaseStrays(damaged);
            strays = 0;
        }
        // Past the entries released: a scan from the start would step over their deletes.
        long from = 0;
        while (count > 0) {
            List<KeyValue<byte[], byte[]>> chunk = new ArrayList<>(RELEASE_CHUNK);
            try (KeyValueIterator<byte[], byte[]> it = store.range(key(from), key(SEQUENCE_LIMIT - 1))) {
                while (it.hasNext() && chunk.size() < RELEASE_CHUNK) {
                    chunk.add(it.next());
                }
            }
            if (chunk.isEmpty()) {
                count = 0; // the store is the truth (see the class comment)
                break;
            }
            for (KeyValue<byte[], byte[]> entry : chunk) {
                boolean stray = stray(entry.key);
                PendingEvent event = stray ? null : read(entry.value);
                if (!stray) {
                    from = sequence(entry.key) + 1;
                }
                if (event != null) {
                    answer.accept(event);
                    answered++;
                } else {
                    damaged.accept(damaged(entry, stray ? "is under a key that is no sequence a scorer uses"
                            : "does not read as a held event"));
                }
                store.delete(entry.key);
                count--;
                if (enough.getAsBoolean()) {
                    observer.pendingEvents(taskId, count);
                    return answered;
                }
            }
        }
        observer.pendingEvents(taskId, count);
        return answered;
    }

    /**
     * Dead-letters and deletes every entry under a key that is no sequence a scorer uses (they lie anywhere in the
     * store's byte order), a chunk per scan of the whole store. Only after a start that found some.
     */
    private void releaseStrays(Consumer<DeadLetter> damaged) {
        while (true) {
            List<KeyValue<byte[], byte[]>> chunk = new ArrayList<>(RELEASE_CHUNK);
            try (KeyValueIterator<byte[], byte[]> it = store.all()) {
                while (it.hasNext() && chunk.size() < RELEASE_CHUNK) {
                    KeyValue<byte[], byte[]> entry = it.next();
                    if (stray(entry.key)) {
                        chunk.add(entry);
                    }
                }
            }
            if (chunk.isEmpty()) {
                return;
            }
            for (KeyValue<byte[], byte[]> entry : chunk) {
                damaged.accept(damaged(entry, "is under a key that is no sequence a scorer uses"));
                store.delete(entry.key);
                count--;
            }
        }
    }

    /** The store key of {@code sequence}: its 8 big-endian bytes ({@link SerdeFactory#sequence}). */
    static byte[] key(long sequence) {
        return SEQUENCES.serializer().serialize(ScoringTopology.PENDING_STORE, sequence);
    }

    /** The sequence of an 8-byte key. */
    private static long sequence(byte[] key) {
        return SEQUENCES.deserializer().deserialize(ScoringTopology.PENDING_STORE, key);
    }

    /** Whether {@code key} is no sequence a scorer uses: not 8 bytes, or outside [0, {@link #SEQUENCE_LIMIT}). */
    private static boolean stray(byte[] key) {
        if (key.length != Long.BYTES) {
            return true;
        }
        long sequence = sequence(key);
        return sequence < 0 || sequence >= SEQUENCE_LIMIT;
    }

    /**
     * The held event in {@code bytes}, or null when they are not one a scorer could have written: unreadable, a
     * negative timestamp (no record has one), a header without a name, or neither the event's value nor its features.
     */
    private PendingEvent read(byte[] bytes) {
        PendingEvent event;
        try {
            event = bytes == null ? null : ENTRIES.deserializer().deserialize(ScoringTopology.PENDING_STORE, bytes);
        } catch (RuntimeException e) {
            return null;
        }
        if (event == null || event.timestamp() < 0 || (event.value() == null && event.features() == null)) {
            return null;
        }
        if (event.headers() != null) {
            for (PendingEvent.Header header : event.headers()) {
                if (header == null || header.key() == null) {
                    return null;
                }
            }
        }
        return event;
    }

    /** The dead letter of an entry no scorer wrote; its key is the sequence (as text), else the key's bytes. */
    private DeadLetter damaged(KeyValue<byte[], byte[]> entry, String problem) {
        boolean eight = entry.key.length == Long.BYTES;
        String key = eight ? Long.toString(sequence(entry.key)) : "0x" + HexFormat.of().formatHex(entry.key);
        return DeadLetters.ofStoreEntry("state store " + ScoringTopology.PENDING_STORE + ": the entry under "
                + (eight ? "sequence " : "key ") + key + " " + problem + " (damaged or forged in its changelog); it is"
                + " not answered", applicationId, ScoringTopology.PENDING_STORE, partition, key, entry.value);
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
