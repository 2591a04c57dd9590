package io.gdastreams.serde;

import io.gdastreams.math.CategoryCounts;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.PartialSnapshot;
import io.gdastreams.model.PartitionProgress;
import io.gdastreams.model.ResetGeneration;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary form of a {@link PartialSnapshot}: K·d² doubles do not belong in JSON (a d = 256 class would be about
 * three times larger as text and exceed the default 1 MB record limit with two classes).
 *
 * <p>Layout (big-endian): version byte, modelId, partition int, nextOffset, applied, deadLettered longs, feature
 * count int + names, class count int + (label, byte length int, {@link RunningGaussian#toBytes()}). Strings are
 * an int byte length + UTF-8. The deserializer checks everything and throws {@link SerializationException} on
 * foreign or damaged bytes.
 *
 * <p>Version 2, for a snapshot with categorical features, appends to the layout of version 1 a count int and per
 * class (label, byte length int, {@link CategoryCounts#toBytes()}), for exactly the labels of the classes. A
 * snapshot without categorical features is written as version 1, byte for byte as before; both versions are read.
 *
 * <p>Version 3, for a snapshot with weighted statistics (sample weights, retractions or forgetting), has the layout
 * of version 1 with classes in the weighted form of {@link RunningGaussian#toBytes()} (its version 2); it is written
 * only when some class is weighted, so a training without weights, retractions or forgetting never sends it, and a
 * version 1 or 2 snapshot with a weighted class is refused. Its applied count is Σ (count + 2·retractions).
 *
 * <p>Version 4, the general layout, is the layout of version 1 with classes in either form, then the category
 * counts as in version 2 (a count int, 0 without categorical features, and per class label, byte length int,
 * {@link CategoryCounts#toBytes()}), then the {@link ResetGeneration}: generation long, dropped events long. It is
 * written only for what the earlier versions cannot hold: a snapshot after a drift reset (generation above 0),
 * weighted statistics with category counts, or diagonal-only statistics ({@code gda.statistics=diagonal}: classes in
 * the diagonal form of {@link RunningGaussian#toBytes()}, its version 3, weighted or not). Its check is applied =
 * dropped + Σ (count + 2·retractions). A weighted class in a version 1 or 2 snapshot, or a diagonal class in any
 * version but 4, is refused. (A version 5 for diagonal statistics alone existed only on a development branch, never
 * in a release; it is folded into version 4.)
 */
final class PartialSnapshotSerde implements Serde<PartialSnapshot> {

    private static final byte FORMAT_VERSION = 1;
    /** The layout with category counts after the classes. */
    private static final byte FORMAT_VERSION_CATEGORIES = 2;
    /** The layout of version 1 with weighted class statistics. */
    private static final byte FORMAT_VERSION_WEIGHTED = 3;
    /** The general layout: any classes, category counts, the reset generation. */
    private static final byte FORMAT_VERSION_GENERAL = 4;
    /** Guards against absurd lengths in damaged input before anything is allocated. */
    private static final int MAX_ITEMS = 1_000_000;

    @Override
    public Serializer<PartialSnapshot> serializer() {
        return (topic, snapshot) -> snapshot == null ? null : encode(snapshot);
    }

    @Override
    public Deserializer<PartialSnapshot> deserializer() {
        return (topic, bytes) -> bytes == null ? null : decode(bytes);
    }

    static byte[] encode(PartialSnapshot snapshot) {
        try {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(buffer);
            PartitionProgress progress = snapshot.progress();
            boolean categorical = !snapshot.categories().isEmpty();
            boolean weighted = snapshot.classes().values().stream().anyMatch(RunningGaussian::isWeighted);
            boolean diagonal = snapshot.classes().values().stream().anyMatch(RunningGaussian::isDiagonal);
            boolean general = (categorical && weighted) || diagonal
                    || !snapshot.generation().equals(ResetGeneration.NONE);
            out.writeByte(general ? FORMAT_VERSION_GENERAL : weighted ? FORMAT_VERSION_WEIGHTED
                    : categorical ? FORMAT_VERSION_CATEGORIES : FORMAT_VERSION);
            writeString(out, snapshot.modelId());
            out.writeInt(progress.partition());
            out.writeLong(progress.nextOffset());
            out.writeLong(progress.applied());
            out.writeLong(progress.deadLettered());
            out.writeInt(progress.features().size());
            for (String feature : progress.features()) {
                writeString(out, feature);
            }
            out.writeInt(snapshot.classes().size());
            for (var entry : snapshot.classes().entrySet()) {
                writeString(out, entry.getKey());
                byte[] stats = entry.getValue().toBytes();
                out.writeInt(stats.length);
                out.write(stats);
            }
            if (categorical || general) {
                out.writeInt(snapshot.categories().size());
                for (var entry : snapshot.categories().entrySet()) {
                    writeString(out, entry.getKey());
                    byte[] counts = entry.getValue().toBytes();
                    out.writeInt(counts.length);
                    out.write(counts);
                }
            }
            if (general) {
                out.writeLong(snapshot.generation().number());
                out.writeLong(snapshot.generation().dropped());
            }
            out.flush();
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
    }

    static PartialSnapshot decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte version = in.get();
            if (version != FORMAT_VERSION && version != FORMAT_VERSION_CATEGORIES
                    && version != FORMAT_VERSION_WEIGHTED && version != FORMAT_VERSION_GENERAL) {
                throw new SerializationException("unsupported partial snapshot format version " + version);
            }
            String modelId = readString(in);
            int partition = in.getInt();
            long nextOffset = in.getLong();
            long applied = in.getLong();
            long deadLettered = in.getLong();
            int featureCount = readCount(in);
            List<String> features = new ArrayList<>(featureCount);
            for (int i = 0; i < featureCount; i++) {
                features.add(readString(in));
            }
            PartitionProgress progress = new PartitionProgress(partition, nextOffset, applied, deadLettered, features);
            int classCount = readCount(in);
            SortedMap<String, RunningGaussian> classes = new TreeMap<>();
            long classTotal = 0;
            for (int i = 0; i < classCount; i++) {
                String label = readString(in);
                byte[] stats = new byte[readCount(in)];
                in.get(stats);
                RunningGaussian g = RunningGaussian.fromBytes(stats);
                if (g.dimension() != featureCount) {
                    throw new SerializationException("class '" + label + "' has dimension " + g.dimension()
                            + " but the snapshot has " + featureCount + " features");
                }
                if (classes.put(label, g) != null) {
                    throw new SerializationException("class '" + label + "' appears twice");
                }
                if (g.isDiagonal() && version != FORMAT_VERSION_GENERAL) {
                    throw new SerializationException("class '" + label + "' has diagonal statistics in a version "
                            + version + " snapshot");
                }
                if (g.isWeighted() && version != FORMAT_VERSION_WEIGHTED && version != FORMAT_VERSION_GENERAL) {
                    throw new SerializationException("class '" + label + "' has weighted statistics in a version "
                            + version + " snapshot");
                }
                classTotal += g.events();
            }
            SortedMap<String, CategoryCounts> categories = new TreeMap<>();
            if (version == FORMAT_VERSION_CATEGORIES) {
                readCategories(in, classes, categories);
                if (categories.values().stream().anyMatch(CategoryCounts::isWeighted)) {
                    throw new SerializationException("weighted category counts in a version 2 snapshot");
                }
            }
            ResetGeneration generation = ResetGeneration.NONE;
            if (version == FORMAT_VERSION_GENERAL) {
                if (in.getInt(in.position()) > 0) {
                    readCategories(in, classes, categories);
                } else {
                    in.getInt();
                }
                generation = new ResetGeneration(in.getLong(), in.getLong());
            }
            if (in.hasRemaining()) {
                throw new SerializationException(in.remaining() + " trailing bytes after a partial snapshot");
            }
            if (classTotal + generation.dropped() != applied) {
                throw new SerializationException("class counts sum to " + classTotal + (generation.dropped() == 0 ? ""
                        : " and " + generation.dropped() + " were dropped by resets,") + " but " + applied
                        + " events are said to be applied");
            }
            return new PartialSnapshot(modelId, progress, classes, categories, generation);
        } catch (BufferUnderflowException e) {
            throw new SerializationException("truncated partial snapshot", e);
        } catch (IllegalArgumentException e) {
            throw new SerializationException("not a partial snapshot: " + e.getMessage(), e);
        }
    }

    /** The category counts of version 2: one per class, of its count, all over the same features. */
    private static void readCategories(ByteBuffer in, SortedMap<String, RunningGaussian> classes,
                                       SortedMap<String, CategoryCounts> categories) {
        int count = readCount(in);
        List<String> features = null;
        for (int i = 0; i < count; i++) {
            String label = readString(in);
            byte[] bytes = new byte[readCount(in)];
            in.get(bytes);
            CategoryCounts counts = CategoryCounts.fromBytes(bytes);
            RunningGaussian stats = classes.get(label);
            if (stats == null) {
                throw new SerializationException("category counts of class '" + label + "', which has no statistics");
            }
            if (stats.count() != counts.count()) {
                throw new SerializationException("class '" + label + "' counts " + stats.count()
                        + " events but its category counts " + counts.count());
            }
            if (features != null && !features.equals(counts.features())) {
                throw new SerializationException("class '" + label + "' has categorical features "
                        + counts.features() + ", another class " + features);
            }
            features = counts.features();
            if (categories.put(label, counts) != null) {
                throw new SerializationException("category counts of class '" + label + "' appear twice");
            }
        }
        if (!categories.keySet().equals(classes.keySet())) {
            throw new SerializationException("category counts of " + categories.keySet() + " but classes "
                    + classes.keySet());
        }
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(ByteBuffer in) {
        byte[] utf8 = new byte[readCount(in)];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private static int readCount(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || count > Math.max(MAX_ITEMS, in.remaining())) {
            throw new SerializationException("implausible length " + count + " in a partial snapshot");
        }
        return count;
    }
}
