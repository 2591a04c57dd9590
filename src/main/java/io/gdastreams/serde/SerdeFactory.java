package io.gdastreams.serde;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.MetricsRecord;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The one place serdes are made. Topics get theirs through their declarations ({@code topology.Topics}, which say
 * what each topic's keys and values are); state stores and codecs take them from here, never inline.
 */
public final class SerdeFactory {

    private SerdeFactory() {
    }

    public static <T> Serde<T> json(Class<T> type) {
        return new JsonSerde<>(type);
    }

    /** Untrusted input is read as raw bytes so that a bad record can be dead-lettered byte for byte. */
    public static Serde<byte[]> rawBytes() {
        return Serdes.ByteArray();
    }

    public static Serde<String> string() {
        return Serdes.String();
    }

    /** Read strictly: see {@link ModelSerde}. */
    public static Serde<ModelParameters> model() {
        return new ModelSerde();
    }

    public static Serde<DeadLetter> deadLetter() {
        return json(DeadLetter.class);
    }

    /** Written by {@link PredictionWriter} (the hot path of scoring), read back by the mapper. */
    public static Serde<Prediction> prediction() {
        Serializer<Prediction> writer = (topic, prediction) -> prediction == null ? null
                : PredictionWriter.toBytes(prediction);
        return Serdes.serdeFrom(writer, json(Prediction.class).deserializer());
    }

    /**
     * The metrics topic's records as {@link MetricsJson} writes and reads them; a record of another {@code type}
     * reads as null (readers skip it), one that is not JSON or lacks a field that places it as an error.
     */
    public static Serde<MetricsRecord> metrics() {
        Serializer<MetricsRecord> writer = (topic, record) -> record == null ? null
                : MetricsJson.write(record).getBytes(StandardCharsets.UTF_8);
        Deserializer<MetricsRecord> reader = (topic, bytes) -> {
            try {
                return bytes == null ? null : MetricsJson.read(new String(bytes, StandardCharsets.UTF_8)).orElse(null);
            } catch (IllegalArgumentException e) {
                throw new SerializationException(e.getMessage(), e);
            }
        };
        return Serdes.serdeFrom(writer, reader);
    }

    public static Serde<PendingEvent> pendingEvent() {
        return json(PendingEvent.class);
    }

    /** Big-endian longs: byte order equals numeric order for non-negative values, so store scans run in order. */
    public static Serde<Long> sequence() {
        return Serdes.Long();
    }

    /** Binary: a partial carries K·d² doubles (see {@link PartialSnapshotSerde} for the layout). */
    public static Serde<PartialSnapshot> partialSnapshot() {
        return new PartialSnapshotSerde();
    }

    public static Serde<PartitionProgress> partitionProgress() {
        return json(PartitionProgress.class);
    }
}
