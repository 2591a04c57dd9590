package io.gdastreams.serde;

import io.gdastreams.bench.SyntheticStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Where the time of reading an unlabelled event goes: the whole event ({@link EventReader}), its feature values alone
 * ({@link JsonNumber#read} at each value's offset), and a loop that only finds each value's end, byte by byte (what
 * any reader of these bytes pays at least). On the bench's own events ({@link SyntheticStream}, K = 3), cycled over
 * 1 024 slots: {@code distinct} = 1 024 different events, or 1 event in every slot, whose branches the CPU can learn
 * (the difference is what mispredicted branches cost). docs/BENCHMARKS.md, "Where the scorer's own work per event
 * goes, in place", has the command and the numbers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class ReadingBenchmark {

    private static final int SLOTS = 1024;
    private static final long SEED = 42;

    @Param({"16", "64"})
    public int d;

    @Param({"1024", "1"})
    public int distinct;

    private byte[][] events;
    /** The offset of each feature value of each event. */
    private int[][] values;
    private EventReader reader;
    private EventFields fields;
    private final JsonNumber number = new JsonNumber();
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        SyntheticStream stream = new SyntheticStream(3, d, SEED);
        events = new byte[SLOTS][];
        values = new int[SLOTS][];
        for (int i = 0; i < SLOTS; i++) {
            events[i] = stream.unlabelled("e-", i % distinct);
            values[i] = valueOffsets(events[i], d);
        }
        reader = new EventReader(stream.featureNames().stream().sorted().toList(), List.of(),
                EventDecoder.DEFAULT_MAX_FEATURES);
        fields = reader.newFields();
        if (!reader.readUnlabelled(events[0], fields) || !number.read(events[0], values[0][0])) {
            throw new IllegalStateException("the reader must accept the bench's events");
        }
    }

    /** Where each of the d values of the features object starts: after each {@code ":} inside it. */
    private static int[] valueOffsets(byte[] event, int d) {
        String text = new String(event, StandardCharsets.US_ASCII);
        int from = text.indexOf("\"features\":{") + "\"features\":{".length();
        int[] offsets = new int[d];
        int found = 0;
        for (int j = from; j < event.length && found < d; j++) {
            if (event[j] == ':' && event[j - 1] == '"') {
                offsets[found++] = j + 1;
            }
        }
        if (found != d) {
            throw new IllegalStateException("expected " + d + " feature values in " + text);
        }
        return offsets;
    }

    private int next() {
        next = (next + 1) & (SLOTS - 1);
        return next;
    }

    @Benchmark
    public double[] readEvent() {
        if (!reader.readUnlabelled(events[next()], fields)) {
            throw new IllegalStateException();
        }
        return fields.point();
    }

    @Benchmark
    public double readValues() {
        int slot = next();
        byte[] event = events[slot];
        double sum = 0.0;
        for (int offset : values[slot]) {
            if (!number.read(event, offset)) {
                throw new IllegalStateException();
            }
            sum += number.value;
        }
        return sum;
    }

    @Benchmark
    public int findValueEnds() {
        int slot = next();
        byte[] event = events[slot];
        int sum = 0;
        for (int offset : values[slot]) {
            int end = offset;
            while (event[end] != ',' && event[end] != '}') {
                end++;
            }
            sum += end;
        }
        return sum;
    }

    /**
     * The three in thread CPU time, interleaved in one JVM, for a machine too shared for JMH's wall clock: arguments
     * d, distinct events, operations per measurement; prints ns of CPU per event for each of 25 rounds' minimum.
     */
    public static void main(String[] args) {
        ReadingBenchmark b = new ReadingBenchmark();
        b.d = Integer.parseInt(args[0]);
        b.distinct = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        b.setUp();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double event = Double.MAX_VALUE;
        double values = Double.MAX_VALUE;
        double ends = Double.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 25; round++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += b.readEvent().length;
            }
            long afterEvents = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += (long) b.readValues();
            }
            long afterValues = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += b.findValueEnds();
            }
            long afterEnds = threads.getCurrentThreadCpuTime();
            event = Math.min(event, (afterEvents - start) / (double) n);
            values = Math.min(values, (afterValues - afterEvents) / (double) n);
            ends = Math.min(ends, (afterEnds - afterValues) / (double) n);
        }
        System.out.printf("d=%d distinct=%d: event %.1f ns, its %d values %.1f ns (%.1f each), finding their ends"
                + " %.1f ns (minima of 25 rounds of %d; %d)%n", b.d, b.distinct, event, b.d, values, values / b.d, ends,
                n, sink & 1);
    }
}
