package io.gdastreams.math;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The binary form of {@link CategoryCounts} (big-endian). Version 1 (unweighted): version byte, feature count int,
 * names, n long, then per feature the value count int and (value, count long) pairs. Version 2 (weighted): version
 * byte, feature count int, names, n long, W double, reference time long, then per feature the value count int and
 * (value, count long, weight double) triples. Strings are an int byte length + UTF-8. Both are read; the reader
 * checks that every feature's counts sum to n and refuses anything else as damage.
 */
final class CategoryCountsBytes {

    private static final byte UNWEIGHTED = 1;
    private static final byte WEIGHTED = 2;
    /** Guards against absurd lengths in damaged input before anything is allocated. */
    private static final int MAX_ITEMS = 1_000_000;

    private CategoryCountsBytes() {
    }

    static byte[] encode(CategoryCounts c) {
        try {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(buffer);
            boolean weighted = c.isWeighted();
            out.writeByte(weighted ? WEIGHTED : UNWEIGHTED);
            out.writeInt(c.features.size());
            for (String name : c.features) {
                writeString(out, name);
            }
            out.writeLong(c.n);
            if (weighted) {
                out.writeDouble(c.weight);
                out.writeLong(c.referenceTime);
            }
            for (int j = 0; j < c.counts.size(); j++) {
                TreeMap<String, Long> table = c.counts.get(j);
                out.writeInt(table.size());
                for (var entry : table.entrySet()) {
                    writeString(out, entry.getKey());
                    out.writeLong(entry.getValue());
                    if (weighted) {
                        out.writeDouble(c.weights.get(j).get(entry.getKey()));
                    }
                }
            }
            out.flush();
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
    }

    static CategoryCounts decode(byte[] bytes) {
        if (bytes == null || bytes.length < 13) {
            throw new IllegalArgumentException("not category counts: too short");
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte version = in.get();
            if (version != UNWEIGHTED && version != WEIGHTED) {
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
            boolean weighted = version == WEIGHTED;
            if (weighted) {
                counts.weight = nonNegative(in.getDouble(), "weight");
                counts.referenceTime = in.getLong();
                counts.weights = new ArrayList<>(m);
            }
            for (int j = 0; j < m; j++) {
                int values = count(in);
                long total = 0;
                TreeMap<String, Double> w = new TreeMap<>();
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
                    if (weighted) {
                        w.put(value, nonNegative(in.getDouble(), "weight of value '" + value + "'"));
                    }
                    total = Math.addExact(total, c);
                }
                if (weighted) {
                    counts.weights.add(w);
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

    private static double nonNegative(double x, String what) {
        if (!(x >= 0) || !Double.isFinite(x)) {
            throw new IllegalArgumentException("not category counts: " + what + " " + x);
        }
        return x;
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
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
}
