package io.gdastreams.math;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Per categorical feature j, the count n_jv of each value v among the observations of one class, and the number of
 * observations n. The categorical counterpart of {@link RunningGaussian}: every observation carries a value for
 * every feature (a training event must match the schema), so Σ_v n_jv = n for each j. Counts are integers, so
 * {@link #merge} is exact: the merge of the counts of two sets of observations equals the counts of their union.
 *
 * <p>Values are kept in their natural (String) order, so the binary form of equal counts is equal. Mutable and not
 * thread-safe.
 */
public final class CategoryCounts {

    private static final byte FORMAT_VERSION = 1;
    /** Guards against absurd lengths in damaged input before anything is allocated. */
    private static final int MAX_ITEMS = 1_000_000;

    private final List<String> features;
    private final List<TreeMap<String, Long>> counts;
    private long n;

    /** Empty counts over the categorical {@code features} (at least one, distinct, in schema order). */
    public CategoryCounts(List<String> features) {
        if (features.isEmpty()) {
            throw new IllegalArgumentException("at least one categorical feature is required");
        }
        if (Set.copyOf(features).size() != features.size()) {
            throw new IllegalArgumentException("duplicate categorical feature in " + features);
        }
        this.features = List.copyOf(features);
        this.counts = new ArrayList<>(features.size());
        for (int j = 0; j < features.size(); j++) {
            counts.add(new TreeMap<>());
        }
    }

    public List<String> features() {
        return features;
    }

    public long count() {
        return n;
    }

    /** One observation: {@code values[j]} is the value of feature j (none null); not modified. */
    public void update(String[] values) {
        if (values.length != features.size()) {
            throw new IllegalArgumentException("expected " + features.size() + " values, got " + values.length);
        }
        for (String v : values) {
            if (v == null) {
                throw new IllegalArgumentException("a training observation has a value for every feature");
            }
        }
        for (int j = 0; j < values.length; j++) {
            counts.get(j).merge(values[j], 1L, Long::sum);
        }
        n++;
    }

    /** Adds the counts of {@code other} (same features; not modified) to these. */
    public void merge(CategoryCounts other) {
        if (!other.features.equals(features)) {
            throw new IllegalArgumentException("feature mismatch: " + features + " vs " + other.features);
        }
        for (int j = 0; j < features.size(); j++) {
            TreeMap<String, Long> mine = counts.get(j);
            other.counts.get(j).forEach((value, c) -> mine.merge(value, c, Math::addExact));
        }
        n = Math.addExact(n, other.n);
    }

    /** Value → count (each ≥ 1) of feature j, in value order; a read-only view. */
    public SortedMap<String, Long> counts(int j) {
        return Collections.unmodifiableSortedMap(counts.get(j));
    }

    /** How many distinct values of feature j these counts hold. */
    public int distinctValues(int j) {
        return counts.get(j).size();
    }

    /** Whether feature j has value {@code value} among these counts. */
    public boolean contains(int j, String value) {
        return counts.get(j).containsKey(value);
    }

    public CategoryCounts copy() {
        CategoryCounts copy = new CategoryCounts(features);
        copy.merge(this);
        return copy;
    }

    /**
     * Versioned binary form (big-endian): version byte, feature count int, names, n long, then per feature the
     * value count int and (value, count long) pairs. Strings are an int byte length + UTF-8.
     */
    public byte[] toBytes() {
        List<byte[]> names = new ArrayList<>();
        long size = 1L + 4 + 8;
        for (String name : features) {
            byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
            names.add(utf8);
            size += 4 + utf8.length;
        }
        List<List<byte[]>> values = new ArrayList<>();
        for (TreeMap<String, Long> table : counts) {
            List<byte[]> encoded = new ArrayList<>(table.size());
            size += 4;
            for (String value : table.keySet()) {
                byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                encoded.add(utf8);
                size += 4 + utf8.length + 8;
            }
            values.add(encoded);
        }
        if (size > Integer.MAX_VALUE) {
            throw new IllegalStateException("category counts too large to encode: " + size + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        buffer.put(FORMAT_VERSION).putInt(features.size());
        for (byte[] name : names) {
            buffer.putInt(name.length).put(name);
        }
        buffer.putLong(n);
        for (int j = 0; j < counts.size(); j++) {
            buffer.putInt(counts.get(j).size());
            int v = 0;
            for (long c : counts.get(j).values()) {
                byte[] utf8 = values.get(j).get(v++);
                buffer.putInt(utf8.length).put(utf8).putLong(c);
            }
        }
        return buffer.array();
    }

    /** Inverse of {@link #toBytes()}; throws IllegalArgumentException on a corrupt or foreign buffer. */
    public static CategoryCounts fromBytes(byte[] bytes) {
        if (bytes == null || bytes.length < 13) {
            throw new IllegalArgumentException("not category counts: too short");
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte version = in.get();
            if (version != FORMAT_VERSION) {
                throw new IllegalArgumentException("unsupported category counts format version " + version);
            }
            int m = count(in);
            List<String> names = new ArrayList<>(m);
            for (int j = 0; j < m; j++) {
                names.add(string(in));
            }
            CategoryCounts counts = new CategoryCounts(names);
            long n = in.getLong();
            if (n < 0) {
                throw new IllegalArgumentException("not category counts: negative count " + n);
            }
            counts.n = n;
            for (int j = 0; j < m; j++) {
                int values = count(in);
                long total = 0;
                for (int v = 0; v < values; v++) {
                    String value = string(in);
                    long c = in.getLong();
                    if (c < 1) {
                        throw new IllegalArgumentException("not category counts: count " + c + " of value '"
                                + value + "'");
                    }
                    if (counts.counts.get(j).put(value, c) != null) {
                        throw new IllegalArgumentException("not category counts: value '" + value + "' twice");
                    }
                    total = Math.addExact(total, c);
                }
                // Every observation has a value of every feature: a different sum is damage, not data.
                if (total != n) {
                    throw new IllegalArgumentException("not category counts: the values of '" + names.get(j)
                            + "' count " + total + " observations, not " + n);
                }
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("not category counts: " + in.remaining() + " trailing bytes");
            }
            return counts;
        } catch (BufferUnderflowException | ArithmeticException e) {
            throw new IllegalArgumentException("not category counts: truncated or overflowing", e);
        }
    }

    private static int count(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || count > Math.min(MAX_ITEMS, in.remaining())) {
            throw new IllegalArgumentException("not category counts: implausible length " + count);
        }
        return count;
    }

    private static String string(ByteBuffer in) {
        byte[] utf8 = new byte[count(in)];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /**
     * label → the sum of every source's counts of that label (new objects), in label order. {@code sources}:
     * label → counts each, not modified; the counts of one label share their features.
     */
    public static SortedMap<String, CategoryCounts> pooled(Iterable<? extends Map<String, CategoryCounts>> sources,
                                                           Predicate<String> include) {
        SortedMap<String, CategoryCounts> pooled = new TreeMap<>();
        for (Map<String, CategoryCounts> source : sources) {
            for (Map.Entry<String, CategoryCounts> entry : source.entrySet()) {
                if (include.test(entry.getKey())) {
                    pooled.computeIfAbsent(entry.getKey(), l -> new CategoryCounts(entry.getValue().features()))
                            .merge(entry.getValue());
                }
            }
        }
        return pooled;
    }
}
