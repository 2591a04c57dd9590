package io.gdastreams.topology;

import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A topic: its name and what its keys and values are on the wire. Each kind of topic is declared once
 * ({@link Topics}, and {@link TrainingTopology#partials} for the internal one); topologies, commands and tests take
 * their serdes from the declaration instead of choosing them where they read or write.
 *
 * <p>Two topics are equal when they have the same name and the same kind of key and value serde (a serde has no
 * equality of its own).
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

    public Topic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
    }

    /** The same kind of topic under another name. */
    public Topic<K, V> named(String otherName) {
        return new Topic<>(otherName, keySerde, valueSerde);
    }

    /**
     * Where a service's input source starts without a committed offset, and after its position was deleted: the
     * earliest offset, Kafka Streams' default, but given per source. With a source of its own policy Kafka Streams
     * reads with {@code auto.offset.reset=none} and resets partitions itself, through calls the service sees, so
     * that it can account for what a reset skips (input deleted before it was read); with none, the consumer would
     * reset silently inside a poll.
     */
    public static final AutoOffsetReset RESET = AutoOffsetReset.earliest();

    /** How a Kafka Streams source reads it. */
    public Consumed<K, V> consumed() {
        return Consumed.with(keySerde, valueSerde);
    }

    /** How a Kafka Streams sink writes it. */
    public Produced<K, V> produced() {
        return Produced.with(keySerde, valueSerde);
    }

    public Serializer<K> keySerializer() {
        return keySerde.serializer();
    }

    public Serializer<V> valueSerializer() {
        return valueSerde.serializer();
    }

    public Deserializer<K> keyDeserializer() {
        return keySerde.deserializer();
    }

    public Deserializer<V> valueDeserializer() {
        return valueSerde.deserializer();
    }

    /** A value as this topic's records carry it. */
    public byte[] valueBytes(V value) {
        return valueSerde.serializer().serialize(name, value);
    }

    /** A value read from this topic's record bytes (throws what the value deserializer throws). */
    public V value(byte[] bytes) {
        return valueSerde.deserializer().deserialize(name, bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Topic<?, ?> topic && name.equals(topic.name)
                && keySerde.getClass().equals(topic.keySerde.getClass())
                && valueSerde.getClass().equals(topic.valueSerde.getClass());
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, keySerde.getClass(), valueSerde.getClass());
    }

    @Override
    public String toString() {
        return name;
    }
}
