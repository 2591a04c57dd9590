package io.gdastreams.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.Prediction;
import io.gdastreams.model.UnlabelledEvent;
import io.gdastreams.serde.EventDecoder;
import io.gdastreams.serde.EventFields;
import io.gdastreams.serde.EventReader;
import io.gdastreams.serde.Json;
import io.gdastreams.serde.PosteriorWriter;
import io.gdastreams.serde.PredictionWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Per-event cost of the JSON ends of the stream topologies, old path against new, on the bench's own events
 * ({@link SyntheticStream}, K = 3): decoding a labelled event into a point in schema order (the tree decoder then
 * the map → array copy the trainer did, against {@link EventReader}), the same for an unlabelled event, and writing a
 * scored prediction (the mapper with the mix-ins against {@link PredictionWriter}). Command and results:
 * docs/BENCHMARKS.md, "Issue #17: streaming decode, hand-written prediction writer".
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class SerdeBenchmark {

    private static final int EVENTS = 1024;
    private static final long SEED = 42;

    @Param({"16", "64"})
    public int d;

    private byte[][] labelled;
    private byte[][] unlabelled;
    private List<String> schema;
    private EventReader reader;
    private EventFields fields;
    private double[] point;
    private Prediction prediction;
    private ObjectWriter mapperWriter;
    private List<String> labels;
    private double[] posterior;
    private PosteriorWriter.Template template;
    private PosteriorWriter posteriorWriter;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        SyntheticStream stream = new SyntheticStream(3, d, SEED);
        labelled = new byte[EVENTS][];
        unlabelled = new byte[EVENTS][];
        for (int i = 0; i < EVENTS; i++) {
            labelled[i] = stream.labelled(i);
            unlabelled[i] = stream.unlabelled("e-", i);
        }
        schema = stream.featureNames().stream().sorted().toList();
        reader = new EventReader(schema, List.of(), EventDecoder.DEFAULT_MAX_FEATURES);
        fields = reader.newFields();
        point = new double[d];
        Map<String, Double> probabilities = new LinkedHashMap<>();
        probabilities.put("class-0", 0.9718281828459045);
        probabilities.put("class-1", 0.02718281828459045);
        probabilities.put("class-2", 0.0010000000000000009);
        prediction = Prediction.scored("e-123456", "class-0", probabilities, -23.718281828459045, "bench", 7L, null);
        mapperWriter = Json.mapper().writerFor(Prediction.class);
        labels = List.copyOf(probabilities.keySet());
        posterior = probabilities.values().stream().mapToDouble(Double::doubleValue).toArray();
        template = new PosteriorWriter.Template(labels, "bench", 7L, null, null);
        posteriorWriter = new PosteriorWriter();
        if (!reader.readLabelled(labelled[0], fields) || !reader.readUnlabelled(unlabelled[0], fields)) {
            throw new IllegalStateException("the reader must accept the bench's events");
        }
    }

    private int next() {
        next = (next + 1) & (EVENTS - 1);
        return next;
    }

    /** Before: tree decoder, then the trainer's copy of the map into the point in schema order. */
    @Benchmark
    public double[] decodeLabelledTree() {
        LabelledEvent event = EventDecoder.decodeLabelled(labelled[next()], EventDecoder.DEFAULT_MAX_FEATURES,
                Set.of()).value();
        for (int i = 0; i < point.length; i++) {
            point[i] = event.features().get(schema.get(i));
        }
        return point;
    }

    @Benchmark
    public double[] decodeLabelledStreaming() {
        if (!reader.readLabelled(labelled[next()], fields)) {
            throw new IllegalStateException();
        }
        return fields.point();
    }

    /** Before: tree decoder; the scorer then mapped the names to coordinates per event. */
    @Benchmark
    public double[] decodeUnlabelledTree() {
        UnlabelledEvent event = EventDecoder.decodeUnlabelled(unlabelled[next()], EventDecoder.DEFAULT_MAX_FEATURES,
                Set.of()).value();
        for (int i = 0; i < point.length; i++) {
            point[i] = event.features().get(schema.get(i));
        }
        return point;
    }

    @Benchmark
    public double[] decodeUnlabelledStreaming() {
        if (!reader.readUnlabelled(unlabelled[next()], fields)) {
            throw new IllegalStateException();
        }
        return fields.point();
    }

    @Benchmark
    public byte[] encodePredictionMapper() throws JsonProcessingException {
        return mapperWriter.writeValueAsBytes(prediction);
    }

    @Benchmark
    public byte[] encodePredictionWriter() {
        return PredictionWriter.toBytes(prediction);
    }

    /**
     * Before: what the scorer did per event from the posterior array on: a label → probability map (as TopClasses
     * built it), the {@link Prediction} record (which copies it), then {@link PredictionWriter}.
     */
    @Benchmark
    public byte[] writePosteriorAsRecord() {
        Map<String, Double> listed = new LinkedHashMap<>(posterior.length * 4 / 3 + 1);
        for (int k = 0; k < posterior.length; k++) {
            listed.put(labels.get(k), posterior[k]);
        }
        return PredictionWriter.toBytes(Prediction.scored("e-123456", labels.get(0), listed, null, null,
                -23.718281828459045, "bench", 7L, null, null, null));
    }

    /** After: the same bytes from the array, through the model's template and a reused buffer. */
    @Benchmark
    public byte[] writePosterior() {
        return posteriorWriter.write(template, "e-123456", 0, posterior, -23.718281828459045, null);
    }

    /**
     * The same pairs measured in thread CPU time rather than wall time, old and new interleaved in one JVM, for a
     * machine too loaded for JMH's throughput to mean much (CPU time is what the other processes do not take).
     * Arguments: d, then operations per measurement; prints ns of CPU and bytes allocated per operation for each
     * round.
     */
    private static long allocatedBytes(ThreadMXBean threads) {
        return ((com.sun.management.ThreadMXBean) threads).getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    public static void main(String[] args) {
        SerdeBenchmark b = new SerdeBenchmark();
        b.d = Integer.parseInt(args[0]);
        int n = Integer.parseInt(args[1]);
        b.setUp();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Map.Entry<String, Runnable>> ops = List.of(
                Map.entry("decodeLabelledTree", b::decodeLabelledTree),
                Map.entry("decodeLabelledStreaming", b::decodeLabelledStreaming),
                Map.entry("decodeUnlabelledTree", b::decodeUnlabelledTree),
                Map.entry("decodeUnlabelledStreaming", b::decodeUnlabelledStreaming),
                Map.entry("encodePredictionMapper", () -> {
                    try {
                        b.encodePredictionMapper();
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException(e);
                    }
                }),
                Map.entry("encodePredictionWriter", b::encodePredictionWriter),
                Map.entry("writePosteriorAsRecord", b::writePosteriorAsRecord),
                Map.entry("writePosterior", b::writePosterior));
        for (int round = 0; round < 5; round++) {
            StringBuilder line = new StringBuilder("d=" + b.d + " round " + round + ":");
            StringBuilder allocated = new StringBuilder("d=" + b.d + " round " + round + ":");
            for (Map.Entry<String, Runnable> op : ops) {
                long bytes = allocatedBytes(threads);
                long start = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    op.getValue().run();
                }
                line.append(String.format(" %s %.0f", op.getKey(), (threads.getCurrentThreadCpuTime() - start)
                        / (double) n));
                allocated.append(String.format(" %s %.0f", op.getKey(), (allocatedBytes(threads) - bytes)
                        / (double) n));
            }
            System.out.println(line.append(" ns CPU/op"));
            System.out.println(allocated.append(" B allocated/op"));
        }
    }
}
