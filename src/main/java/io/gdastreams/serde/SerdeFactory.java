package io.gdastreams.serde;

import io.gdastreams.model.DeadLetter;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.PendingEvent;
import io.gdastreams.model.Prediction;
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
